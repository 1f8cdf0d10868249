import {
  type ApiKey,
  ApiError,
  call,
  type Org,
  type ProviderKey,
  type Session,
  type Usage,
  type Vendor,
} from './api';
import { charsChart, money, percent } from './chart';
import { field, formatDate, formatNumber, h, status } from './dom';

/** What a page gets: the signed-in session, and a way to go to another page. */
export interface PageContext {
  session: Session;
  go(path: string): void;
}

export interface Page {
  title: string;
  render(ctx: PageContext): Promise<HTMLElement>;
}

/** A table whose cells carry their column's name, so narrow screens can stack rows instead of scrolling. */
function table(caption: string, headings: string[], rows: Array<Array<string | Node>>): HTMLElement {
  return h(
    'table',
    {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...headings.map((text) => h('th', { scope: 'col' }, text)))),
    h(
      'tbody',
      {},
      ...rows.map((cells) =>
        h('tr', {}, ...cells.map((cell, i) => h('td', { 'data-label': headings[i] ?? '' }, cell))),
      ),
    ),
  );
}

function section(title: string, ...children: Array<Node | null>): HTMLElement {
  return h('section', {}, h('h2', {}, title), ...children);
}

// ---- API keys -------------------------------------------------------------------------------------

export const keysPage: Page = {
  title: 'API keys',
  async render() {
    const note = status();
    const list = h('div', {});
    const shown = h('div', { class: 'once', hidden: true });
    const refresh = async (): Promise<void> => {
      const keys = await call<ApiKey[]>('GET', '/api/keys');
      list.replaceChildren(
        keys.length === 0
          ? h('p', {}, 'No keys yet.')
          : table(
              'Keys of this org',
              ['Key', 'Created', 'Last used', 'State', ''],
              keys.map((key) => [
                h('code', {}, `${key.prefix}…`),
                formatDate(key.created_at),
                formatDate(key.last_used_at),
                key.revoked_at ? `revoked ${formatDate(key.revoked_at)}` : 'active',
                key.revoked_at
                  ? ''
                  : h(
                      'button',
                      {
                        type: 'button',
                        class: 'danger',
                        'aria-label': `Revoke key ${key.prefix}`,
                        onclick: () => void revoke(key),
                      },
                      'Revoke',
                    ),
              ]),
            ),
      );
    };
    const revoke = async (key: ApiKey): Promise<void> => {
      if (!window.confirm(`Revoke ${key.prefix}…? Requests with it are refused at once.`)) return;
      try {
        await call('DELETE', `/api/keys/${encodeURIComponent(key.id)}`);
        note.say(`Key ${key.prefix}… revoked. Open connections with it are closed.`);
        await refresh();
      } catch (error) {
        note.say(messageOf(error), 'error');
      }
    };
    const issue = async (): Promise<void> => {
      try {
        const issued = await call<ApiKey & { key: string }>('POST', '/api/keys');
        const value = h('code', { class: 'secret', 'data-testid': 'new-key' }, issued.key);
        shown.replaceChildren(
          h('h3', {}, 'Your new key'),
          h('p', {}, 'Copy it now: it is shown this once. The router keeps only its hash.'),
          value,
        );
        shown.hidden = false;
        note.say('Key issued.');
        await refresh();
        value.setAttribute('tabindex', '-1');
        value.focus();
      } catch (error) {
        note.say(messageOf(error), 'error');
      }
    };
    await refresh();
    return h(
      'div',
      {},
      h(
        'p',
        {},
        'An API key lets your code call the router (Authorization: Bearer rtr_…). Every key of the org shares ',
        'its cache and its stored vendor keys. Last use is updated within a minute.',
      ),
      h('button', { type: 'button', onclick: () => void issue() }, 'Issue a new key'),
      note.element,
      shown,
      list,
    );
  },
};

// ---- Vendor keys ----------------------------------------------------------------------------------

export const vendorKeysPage: Page = {
  title: 'Vendor keys',
  async render() {
    const [vendors, stored] = await Promise.all([
      call<Vendor[]>('GET', '/api/vendors'),
      call<ProviderKey[]>('GET', '/v1/provider-keys'),
    ]);
    const byVendor = new Map(stored.map((key) => [key.provider, key]));
    return h(
      'div',
      {},
      h(
        'p',
        {},
        "The router calls each vendor with your org's own key: the vendor bills you for what it synthesizes. ",
        'A key is stored encrypted and never shown again, only its last characters. A change is used within seconds.',
      ),
      ...vendors.map((vendor) => vendorCard(vendor, byVendor.get(vendor.id))),
    );
  },
};

function vendorCard(vendor: Vendor, stored: ProviderKey | undefined): HTMLElement {
  const note = status();
  const input = h('input', { type: 'password', autocomplete: 'off', spellcheck: 'false', maxlength: 512 });
  const keyField = field(
    stored ? `Replace the ${vendor.id} key` : `${vendor.id} key`,
    input as HTMLInputElement,
  );
  const state = h('p', { class: 'state' });
  const remove = h('button', { type: 'button', class: 'danger' }, `Delete the ${vendor.id} key`);
  const show = (key: ProviderKey | undefined): void => {
    state.textContent = key
      ? `Stored: ends in ${key.last4 || '(hidden)'}, updated ${formatDate(key.updated_at)}.`
      : 'No key stored: requests for this vendor are refused.';
    remove.hidden = key === undefined;
  };
  show(stored);
  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    const value = keyField.input.value;
    keyField.setError(null);
    if (value.length === 0) return keyField.setError('Enter the key the vendor gave you.');
    if (!/^[!-~]+$/.test(value)) {
      return keyField.setError('A key is printable characters without spaces; check what was pasted.');
    }
    try {
      const saved = await call<ProviderKey>('PUT', `/v1/provider-keys/${vendor.id}`, { api_key: value });
      keyField.input.value = '';
      show(saved);
      note.say(`${vendor.id} key stored.`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) keyField.setError(error.message);
      else note.say(messageOf(error), 'error');
    }
  };
  remove.addEventListener('click', () => {
    if (!window.confirm(`Delete the ${vendor.id} key? Requests for ${vendor.id} will be refused.`)) return;
    call('DELETE', `/v1/provider-keys/${vendor.id}`).then(
      () => {
        show(undefined);
        note.say(`${vendor.id} key deleted.`);
      },
      (error: unknown) => note.say(messageOf(error), 'error'),
    );
  });
  return h(
    'section',
    { class: 'card', 'aria-labelledby': `vendor-${vendor.id}` },
    h(
      'h2',
      { id: `vendor-${vendor.id}` },
      `${vendor.id}`,
      h('span', { class: 'muted' }, ` (${vendor.name})`),
    ),
    state,
    h('p', {}, 'Enables: ', vendor.surfaces.join('; '), '.'),
    h(
      'form',
      { onsubmit: (e: Event) => void save(e), novalidate: true },
      keyField.wrapper,
      h('button', { type: 'submit' }, 'Store key'),
    ),
    remove,
    note.element,
  );
}

// ---- Retention ------------------------------------------------------------------------------------

export const retentionPage: Page = {
  title: 'Retention',
  async render() {
    const org = await call<Org>('GET', '/api/org');
    const note = status();
    const current = h('p', { 'data-testid': 'retention-now' });
    const showCurrent = (days: number): void => {
      current.textContent =
        days === 0
          ? 'Caching is off (retention 0): nothing new is cached and cached audio is deleted within about two days.'
          : `Audio is kept ${days} day${days === 1 ? '' : 's'} after its last use.`;
    };
    showCurrent(org.retention_days);
    const input = h('input', {
      type: 'number',
      inputmode: 'numeric',
      min: 0,
      max: 3650,
      step: 1,
      value: org.retention_days,
    }) as HTMLInputElement;
    const days = field('Retention in days', input, '0 turns caching off; otherwise 1 to 3650 days.');
    const save = async (event: Event): Promise<void> => {
      event.preventDefault();
      days.setError(null);
      const value = Number(input.value);
      if (input.value.trim() === '' || !Number.isInteger(value) || value < 0 || value > 3650) {
        return days.setError('Enter 0 (caching off) or a whole number of days from 1 to 3650.');
      }
      try {
        const saved = await call<Org>('PUT', '/api/org/retention', { retention_days: value });
        showCurrent(saved.retention_days);
        note.say(`Retention set to ${saved.retention_days} day${saved.retention_days === 1 ? '' : 's'}.`);
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) days.setError(error.message);
        else note.say(messageOf(error), 'error');
      }
    };
    return h(
      'div',
      {},
      current,
      h(
        'form',
        { onsubmit: (e: Event) => void save(e), novalidate: true },
        days.wrapper,
        h('button', { type: 'submit' }, 'Save retention'),
      ),
      note.element,
      section(
        'What this changes',
        h(
          'ul',
          {},
          h(
            'li',
            {},
            'Retention counts from the last time a sentence was played, not from when it was made.',
          ),
          h('li', {}, 'Audio unused for the retention period is deleted within a day after it.'),
          h('li', {}, 'A change applies to everything already cached, at once.'),
          h(
            'li',
            {},
            'At 0 nothing new is cached and cached audio is deleted within about two days. Requests still work, ',
            'but every sentence is synthesized (and billed) by the vendor.',
          ),
          h('li', {}, 'Only audio is kept, under a one-way hash: the text of a sentence is never stored.'),
        ),
      ),
    );
  },
};

// ---- Credit ---------------------------------------------------------------------------------------

export const creditPage: Page = {
  title: 'Credit',
  async render() {
    const org = await call<Org>('GET', '/api/org');
    const inCredit = org.credit === 'in';
    return h(
      'div',
      {},
      h(
        'p',
        { class: `badge ${inCredit ? 'ok' : 'error'}`, 'data-testid': 'credit-state' },
        inCredit ? 'In credit' : 'Out of credit',
      ),
      org.disabled
        ? h('p', { class: 'status error' }, 'This org is disabled: every request is refused.')
        : null,
      section(
        'What happens at zero',
        h(
          'ul',
          {},
          h('li', {}, 'New requests and new connections are refused with HTTP 402 (insufficient_credits).'),
          h('li', {}, 'Connections already open carry on until they close.'),
          h('li', {}, 'Once credit is added, new requests are accepted again within seconds.'),
          h(
            'li',
            {},
            'Vendor charges are separate: each vendor bills your own account for what it synthesizes.',
          ),
        ),
      ),
      section(
        'Adding credit',
        h(
          'p',
          {},
          "Credit is added by the router's operator for now; ask them with your org id: ",
          h('code', {}, org.id),
          '.',
        ),
      ),
    );
  },
};

// ---- Usage ----------------------------------------------------------------------------------------

export const usagePage: Page = {
  title: 'Usage and savings',
  async render() {
    const usage = await call<Usage>('GET', '/api/usage?days=30');
    const t = usage.totals;
    const empty = t.synthesized_sentences + t.cached_sentences === 0;
    return h(
      'div',
      {},
      h('p', {}, `The last 30 days (${usage.from} to ${usage.to}, UTC), all vendors.`),
      h(
        'dl',
        { class: 'totals' },
        h(
          'div',
          {},
          h('dt', {}, 'Sentences served from cache'),
          h('dd', { 'data-testid': 'cache-share' }, percent(t.cache_share)),
        ),
        h(
          'div',
          {},
          h('dt', {}, 'Characters served from cache'),
          h('dd', { 'data-testid': 'cached-chars' }, formatNumber(t.cached_chars)),
        ),
        h(
          'div',
          {},
          h('dt', {}, 'Characters synthesized at the vendor'),
          h('dd', {}, formatNumber(t.synthesized_chars)),
        ),
        h(
          'div',
          {},
          h('dt', {}, 'Estimated vendor cost saved'),
          h('dd', { 'data-testid': 'saved' }, money(t.saved, usage.currency)),
        ),
      ),
      empty ? h('p', {}, 'Nothing was spoken in this period yet.') : null,
      section('Characters per day', charsChart(usage)),
      section(
        'Per vendor',
        usage.vendors.length === 0
          ? h('p', {}, 'No vendor was used in this period.')
          : table(
              'Usage per vendor, last 30 days',
              [
                'Vendor',
                'Synthesized (chars)',
                'From cache (chars)',
                'Sentences from cache',
                'Price per million chars',
                'Saved',
              ],
              usage.vendors.map((v) => [
                v.provider,
                formatNumber(v.synthesized_chars),
                formatNumber(v.cached_chars),
                percent(v.cache_share),
                v.price_per_million_chars === null
                  ? 'not set'
                  : money(v.price_per_million_chars, usage.currency),
                money(v.saved, usage.currency),
              ]),
            ),
      ),
      section(
        'Per day',
        table(
          'Usage per day, all vendors',
          ['Day', 'Synthesized (chars)', 'From cache (chars)', 'Sentences from cache', 'Saved'],
          usage.days
            .filter((d) => d.synthesized_sentences + d.cached_sentences > 0)
            .reverse()
            .map((d) => [
              d.day,
              formatNumber(d.synthesized_chars),
              formatNumber(d.cached_chars),
              percent(d.cache_share),
              money(d.saved, usage.currency),
            ]),
        ),
      ),
      h(
        'p',
        { class: 'hint' },
        "Savings are estimated from the prices the router's operator configured: characters served from cache, ",
        'which the vendor did not synthesize or bill, at each vendor’s price.',
      ),
    );
  },
};

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong; try again.';
}
