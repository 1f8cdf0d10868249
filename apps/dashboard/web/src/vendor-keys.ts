import type { ProviderKey } from '@router/client';
import type { KeyCheck, Vendor } from '@router/dashboard-types';
import { ApiError, call } from './api';
import { field, formatDate, h, status } from './dom';
import { focusError, messageOf, ownersOnly, type Page, table } from './pages';

// ---- Vendor keys: one table, a row per vendor --------------------------------------------------------

export const vendorKeysPage: Page = {
  title: 'Vendor keys',
  async render(ctx) {
    const owner = ctx.session.role === 'owner';
    const note = status();
    const list = h('div', {});
    let vendors: Vendor[] = [];

    /** The table again from the server; focus goes back to the button named `focusName`, if still there. */
    const refresh = async (focusName?: string): Promise<void> => {
      vendors = await call<Vendor[]>('GET', '/api/vendors');
      list.replaceChildren(
        table(
          'Vendor keys of this org',
          ['Vendor', 'Key', 'Updated', 'Enables', 'Last error', 'Actions'],
          vendors.map((vendor) => [
            h('span', {}, vendor.id, h('span', { class: 'muted' }, ` (${vendor.name})`)),
            vendor.key ? `ends in ${vendor.key.last4 || '(hidden)'}` : 'none stored',
            vendor.key ? formatDate(vendor.key.updated_at) : '—',
            h('ul', { class: 'plain' }, ...vendor.surfaces.map((s) => h('li', {}, s))),
            lastError(vendor),
            actions(vendor),
          ]),
        ),
      );
      if (focusName) {
        [...list.querySelectorAll<HTMLButtonElement>('button')]
          .find((b) => b.getAttribute('aria-label') === focusName)
          ?.focus();
      }
    };

    const actions = (vendor: Vendor): HTMLElement =>
      h(
        'div',
        { class: 'actions' },
        vendor.key
          ? h(
              'button',
              {
                type: 'button',
                'aria-label': `Test this key for ${vendor.id}`,
                onclick: (event: Event) => void test(vendor, event.currentTarget as HTMLButtonElement),
              },
              'Test this key',
            )
          : null,
        owner && vendor.key
          ? h(
              'button',
              {
                type: 'button',
                class: 'danger',
                'aria-label': `Delete the ${vendor.id} key`,
                onclick: () => void remove(vendor),
              },
              'Delete',
            )
          : null,
        vendor.key || owner ? null : h('span', { class: 'muted' }, 'none'),
        owner && !vendor.key
          ? h(
              'button',
              {
                type: 'button',
                class: 'link',
                'aria-label': `Store a key for ${vendor.id}`,
                onclick: () => {
                  vendorField.input.value = vendor.id;
                  keyField.input.focus();
                },
              },
              'Store a key',
            )
          : null,
      );

    const test = async (vendor: Vendor, button: HTMLButtonElement): Promise<void> => {
      button.disabled = true;
      note.say(`Testing the ${vendor.id} key…`);
      try {
        const result = await call<KeyCheck>('POST', `/v1/provider-keys/${vendor.id}/test`);
        await refresh(`Test this key for ${vendor.id}`);
        note.say(`${result.ok ? 'Passed' : 'Failed'}: ${result.outcome}`, result.ok ? 'ok' : 'error');
      } catch (error) {
        button.disabled = false;
        note.say(messageOf(error), 'error');
      }
    };

    const remove = async (vendor: Vendor): Promise<void> => {
      if (!window.confirm(`Delete the ${vendor.id} key? Requests for ${vendor.id} will be refused.`)) return;
      try {
        await call('DELETE', `/v1/provider-keys/${vendor.id}`);
        await refresh();
        note.say(`${vendor.id} key deleted. Requests for ${vendor.id} are refused until a key is stored.`);
        // The delete button is gone: focus goes to where a new key would be stored, that vendor chosen.
        vendorField.input.value = vendor.id;
        keyField.input.focus();
      } catch (error) {
        note.say(messageOf(error), 'error');
      }
    };

    await refresh();
    const vendorField = field(
      'Vendor',
      h('select', {}, ...vendors.map((v) => h('option', { value: v.id }, v.id))) as HTMLSelectElement,
    );
    const keyField = field(
      'Key',
      h('input', {
        type: 'password',
        autocomplete: 'off',
        spellcheck: 'false',
        maxlength: 512,
      }) as HTMLInputElement,
      'Stored encrypted; only its last characters are shown again. A stored key is replaced.',
    );
    const save = async (event: Event): Promise<void> => {
      event.preventDefault();
      const vendor = vendorField.input.value;
      const value = keyField.input.value;
      keyField.setError(null);
      if (value.length === 0) return focusError(keyField, 'Enter the key the vendor gave you.');
      if (!/^[!-~]+$/.test(value)) {
        return focusError(keyField, 'A key is printable characters without spaces; check what was pasted.');
      }
      try {
        const saved = await call<ProviderKey>('PUT', `/v1/provider-keys/${vendor}`, { api_key: value });
        keyField.input.value = '';
        await refresh();
        note.say(`${vendor} key stored: ends in ${saved.last4}. Test it with "Test this key".`);
      } catch (error) {
        if (error instanceof ApiError && error.status === 422) focusError(keyField, error.message);
        else note.say(messageOf(error), 'error');
      }
    };
    return h(
      'div',
      {},
      h(
        'p',
        {},
        "The router calls each vendor with your org's own key: the vendor bills you for what it synthesizes. ",
        'A key is stored encrypted and never shown again, only its last characters. A change is used within seconds. ',
        '"Test this key" makes the cheapest call the vendor has with it: its voice list where it has one (nothing ',
        'billed), else one word spoken (a few characters billed).',
      ),
      note.element,
      list,
      owner
        ? h(
            'section',
            {},
            h('h2', {}, 'Store or replace a key'),
            h(
              'form',
              { onsubmit: (e: Event) => void save(e), novalidate: true },
              vendorField.wrapper,
              keyField.wrapper,
              h('button', { type: 'submit' }, 'Store key'),
            ),
          )
        : ownersOnly('store or delete vendor keys'),
    );
  },
};

function lastError(vendor: Vendor): HTMLElement | string {
  if (!vendor.key) return '—';
  if (vendor.last_error) {
    return h(
      'span',
      { class: 'error-text' },
      `${vendor.last_error.message} (${formatDate(vendor.last_error.at)})`,
    );
  }
  return vendor.key.checked_at ? `none; passed its test ${formatDate(vendor.key.checked_at)}` : 'none';
}
