import type { ApiKey, Org, Session, UsageReport } from '@router/dashboard-types';
import { ApiError, call } from './api';
import { barChart, compact, money, percent } from './chart';
import { type Field, field, formatDate, formatNumber, h, status } from './dom';

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
export function table(caption: string, headings: string[], rows: Array<Array<string | Node>>): HTMLElement {
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

export function section(title: string, ...children: Array<Node | null>): HTMLElement {
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
      const now = Date.now();
      list.replaceChildren(
        keys.length === 0
          ? h('p', {}, 'No keys yet.')
          : table(
              'Keys of this org',
              ['Name', 'Key', 'Created', 'Last used', 'Expires', 'State', 'Action'],
              keys.map((key) => {
                const expired = key.expires_at !== null && Date.parse(key.expires_at) <= now;
                return [
                  key.name || h('span', { class: 'muted' }, '(no name)'),
                  h('code', {}, `${key.prefix}…`),
                  formatDate(key.created_at),
                  formatDate(key.last_used_at),
                  key.expires_at === null ? 'never' : formatDate(key.expires_at),
                  key.revoked_at ? `revoked ${formatDate(key.revoked_at)}` : expired ? 'expired' : 'active',
                  key.revoked_at
                    ? ''
                    : h(
                        'button',
                        {
                          type: 'button',
                          class: 'danger',
                          'aria-label': `Revoke key ${key.prefix}`,
                          'data-created': key.created_at,
                          onclick: () => void revoke(key),
                        },
                        'Revoke',
                      ),
                ];
              }),
            ),
      );
    };
    const revoke = async (key: ApiKey): Promise<void> => {
      if (!window.confirm(`Revoke ${key.prefix}…? Requests with it are refused at once.`)) return;
      try {
        await call('DELETE', `/api/keys/${encodeURIComponent(key.id)}`);
        await refresh();
        note.say(`Key ${key.prefix}… revoked. Open connections with it are closed.`);
        // The button pressed is gone: focus goes to the next key's revoke button, or else to issuing a key.
        const buttons = [...list.querySelectorAll<HTMLButtonElement>('button.danger')];
        const next =
          buttons.find((b) => (b.dataset['created'] ?? '') < key.created_at) ??
          buttons.at(-1) ??
          nameField.input;
        next.focus();
      } catch (error) {
        note.say(messageOf(error), 'error');
      }
    };
    const nameField = field(
      'Name',
      h('input', { type: 'text', maxlength: 100, autocomplete: 'off', required: true }) as HTMLInputElement,
      'What the key is for, like "support agent, production".',
    );
    const expiryField = field(
      'Expires on (optional)',
      h('input', { type: 'date' }) as HTMLInputElement,
      'The key stops working at the end of this day (UTC). Leave it empty for a key that does not expire.',
    );
    const issue = async (event: Event): Promise<void> => {
      event.preventDefault();
      nameField.setError(null);
      expiryField.setError(null);
      const name = nameField.input.value.trim();
      const day = expiryField.input.value;
      if (name === '') return focusError(nameField, 'Give the key a name, so you can tell it apart later.');
      if (day !== '' && day < new Date().toISOString().slice(0, 10)) {
        return focusError(expiryField, 'Choose today or a later day, or leave it empty.');
      }
      try {
        const issued = await call<ApiKey & { key: string }>('POST', '/api/keys', {
          name,
          ...(day === '' ? {} : { expires_at: `${day}T23:59:59.999Z` }),
        });
        const value = h('code', { class: 'secret', 'data-testid': 'new-key' }, issued.key);
        const copied = status();
        const copy = async (): Promise<void> => {
          try {
            await navigator.clipboard.writeText(issued.key);
            copied.say('Copied to the clipboard.');
          } catch {
            getSelection()?.selectAllChildren(value);
            copied.say('The key is selected: copy it with Ctrl+C (⌘C on a Mac).');
          }
        };
        shown.replaceChildren(
          h('h2', {}, `Your new key "${issued.name}"`),
          h('p', {}, 'Copy it now: it is shown this once. The router keeps only its hash.'),
          value,
          h('button', { type: 'button', onclick: () => void copy() }, 'Copy the key'),
          copied.element,
        );
        shown.hidden = false;
        nameField.input.value = '';
        expiryField.input.value = '';
        note.say(`Key "${issued.name}" issued.`);
        await refresh();
        value.setAttribute('tabindex', '-1');
        value.focus();
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) note.say(error.message, 'error');
        else note.say(messageOf(error), 'error');
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
      h(
        'form',
        { onsubmit: (e: Event) => void issue(e), novalidate: true },
        nameField.wrapper,
        expiryField.wrapper,
        h('button', { type: 'submit' }, 'Issue a new key'),
      ),
      note.element,
      shown,
      list,
    );
  },
};

/** Shows a field's error and moves focus to it. */
export function focusError(target: Field, message: string): void {
  target.setError(message);
  target.input.focus();
}

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
    const usage = await call<UsageReport>('GET', '/api/usage?days=30');
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
      section(
        'Characters per day',
        barChart({
          labels: usage.days.map((d) => d.day),
          series: [
            {
              name: 'synthesized at the vendor',
              className: 'bar-synth',
              values: usage.days.map((d) => d.synthesized_chars),
            },
            {
              name: 'served from cache',
              className: 'bar-cached',
              values: usage.days.map((d) => d.cached_chars),
            },
          ],
          summary:
            `Characters per day from ${usage.from} to ${usage.to}: ${formatNumber(t.synthesized_chars)} ` +
            `synthesized at the vendor, ${formatNumber(t.cached_chars)} served from cache.`,
          format: compact,
        }),
      ),
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

/** Why a member sees no form: only owners change this. */
export function ownersOnly(what: string): HTMLElement {
  return h(
    'p',
    { class: 'note' },
    `Only an owner of the org can ${what}. Ask one of its owners (see Members).`,
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong; try again.';
}
