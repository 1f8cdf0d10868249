import type { ApiKey, BreakdownFigures, Breakdowns, RequestKey, RequestPage } from '@router/dashboard-types';
import { call } from './api';
import { barChart, compact, money, percent } from './chart';
import { type Field, field, formatDate, formatNumber, h } from './dom';
import { messageOf, type Page, section, table } from './pages';

const SURFACES: Record<string, string> = {
  speech: 'Speech (POST /v1/audio/speech)',
  stream: 'Stream (/v1/stream)',
  mirror_rest: 'Vendor mirror, REST',
  mirror_socket: 'Vendor mirror, socket',
};
const VENDORS = 'abcdefghij'.split('').map((letter) => `vendor_${letter}`);
const PAGE_SIZE = 50;

function keyName(key: RequestKey | null): string | Node {
  if (key === null) return h('span', { class: 'muted' }, '(no key)');
  return h('span', {}, key.name || '(no name)', ' ', h('code', {}, `${key.prefix}…`));
}

function ms(value: number | null): string {
  return value === null ? '–' : `${formatNumber(value)} ms`;
}

function select(label: string, options: Array<[string, string]>, hint?: string): Field {
  return field(
    label,
    h('select', {}, ...options.map(([value, text]) => h('option', { value }, text))) as HTMLSelectElement,
    hint,
  );
}

function dateInput(label: string, value = ''): Field {
  return field(label, h('input', { type: 'date', value }) as HTMLInputElement);
}

// ---- Request log ----------------------------------------------------------------------------------

export const requestsPage: Page = {
  title: 'Request log',
  async render() {
    const keys = await call<ApiKey[]>('GET', '/api/keys');
    const from = dateInput('From (UTC day)');
    const to = dateInput('To (UTC day, included)');
    const key = select('API key', [
      ['', 'Any key'],
      ...keys.map((k): [string, string] => [k.id, `${k.name || '(no name)'} (${k.prefix}…)`]),
    ]);
    const vendor = select('Vendor', [['', 'Any vendor'], ...VENDORS.map((v): [string, string] => [v, v])]);
    const surface = select('Surface', [['', 'Any surface'], ...Object.entries(SURFACES)]);
    const outcome = select('Status', [
      ['', 'Any status'],
      ['ok', 'OK'],
      ['error', 'Error'],
    ]);
    const cached = select('From the cache', [
      ['', 'Either'],
      ['true', 'Some sentences from the cache'],
      ['false', 'Nothing from the cache'],
    ]);
    const filters = [from, to, key, vendor, surface, outcome, cached];
    const names = ['from', 'to', 'key', 'vendor', 'surface', 'status', 'cached'];
    const list = h('div', { 'aria-live': 'polite' });
    const exportLink = h('a', { class: 'button', href: '/api/requests/export', download: 'request-log.csv' });
    exportLink.textContent = 'Export CSV';
    const newer = h('button', { type: 'button' }, 'Newer') as HTMLButtonElement;
    const older = h('button', { type: 'button' }, 'Older') as HTMLButtonElement;
    const where = h('p', { class: 'hint', 'data-testid': 'requests-page' });
    /** The cursors of the pages before this one (the first page has none). */
    let cursors: string[] = [];
    let current = '';
    let next: string | null = null;

    const query = (): string => {
      const params = new URLSearchParams();
      filters.forEach((f, i) => {
        if (f.input.value !== '') params.set(names[i] ?? '', f.input.value);
      });
      return params.toString();
    };
    const load = async (): Promise<void> => {
      const params = new URLSearchParams(query());
      exportLink.setAttribute('href', `/api/requests/export${params.size > 0 ? `?${params}` : ''}`);
      params.set('limit', String(PAGE_SIZE));
      if (current) params.set('cursor', current);
      try {
        const page = await call<RequestPage>('GET', `/api/requests?${params}`);
        next = page.next_cursor;
        newer.disabled = cursors.length === 0;
        older.disabled = next === null;
        where.textContent =
          page.rows.length === 0
            ? ''
            : `Page ${cursors.length + 1}: ${page.rows.length} ${page.rows.length === 1 ? 'row' : 'rows'}, newest first.`;
        list.replaceChildren(
          page.rows.length === 0
            ? h('p', {}, 'No requests match these filters.')
            : table(
                'Requests and socket sessions, newest first',
                [
                  'Time',
                  'API key',
                  'Surface',
                  'Vendor',
                  'Model',
                  'Voice',
                  'Characters (from cache)',
                  'Sentences (from cache)',
                  'First audio',
                  'Duration',
                  'Status',
                ],
                page.rows.map((r) => [
                  formatDate(r.started_at),
                  keyName(r.key),
                  SURFACES[r.surface] ?? r.surface,
                  r.vendor,
                  r.model || '–',
                  r.voice || '–',
                  `${formatNumber(r.chars)} (${formatNumber(r.cached_chars)})`,
                  `${formatNumber(r.sentences)} (${formatNumber(r.cached_sentences)})`,
                  ms(r.first_audio_ms),
                  ms(r.duration_ms),
                  r.status === 'ok'
                    ? `OK${r.http_status === null ? '' : ` (${r.http_status})`}`
                    : h(
                        'span',
                        { class: 'error-text' },
                        `Error: ${r.error_code ?? 'unknown'}${r.http_status === null ? '' : ` (${r.http_status})`}`,
                      ),
                ]),
              ),
        );
      } catch (error) {
        list.replaceChildren(h('p', { class: 'status error', role: 'alert' }, messageOf(error)));
      }
    };
    newer.addEventListener('click', () => {
      current = cursors.pop() ?? '';
      void load();
    });
    older.addEventListener('click', () => {
      if (next === null) return;
      cursors.push(current);
      current = next;
      void load();
    });
    const apply = (event: Event): void => {
      event.preventDefault();
      cursors = [];
      current = '';
      void load();
    };
    await load();
    return h(
      'div',
      {},
      h(
        'p',
        {},
        'One row per request and per socket session. Sentences themselves are never kept: only their counts. ',
        'Rows are kept for the number of days the router’s operator configured.',
      ),
      h(
        'form',
        { class: 'filters', onsubmit: apply, 'aria-label': 'Filter the request log' },
        ...filters.map((f) => f.wrapper),
        h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Apply filters'), exportLink),
      ),
      where,
      list,
      h('nav', { class: 'pager', 'aria-label': 'Pages of the request log' }, newer, older),
    );
  },
};

// ---- Breakdowns -----------------------------------------------------------------------------------

function figureTable(
  caption: string,
  first: string[],
  rows: Array<{ cells: Array<string | Node>; f: BreakdownFigures }>,
  currency: string,
): HTMLElement {
  return table(
    caption,
    [
      ...first,
      'Requests',
      'Errors',
      'Synthesized (chars)',
      'From cache (chars)',
      'Sentences from cache',
      'Saved',
      'First audio p50',
      'First audio p95',
    ],
    rows.map(({ cells, f }) => [
      ...cells,
      formatNumber(f.requests),
      formatNumber(f.errors),
      formatNumber(f.synthesized_chars),
      formatNumber(f.cached_chars),
      percent(f.cache_share),
      money(f.saved, currency),
      ms(f.first_audio_p50_ms),
      ms(f.first_audio_p95_ms),
    ]),
  );
}

function vendorSection(vendor: string, data: Breakdowns): HTMLElement {
  const perDay = new Map(data.by_day.filter((d) => d.vendor === vendor).map((d) => [d.day, d]));
  const value = (pick: (f: BreakdownFigures) => number | null): number[] =>
    data.days.map((day) => {
      const f = perDay.get(day);
      return f ? (pick(f) ?? 0) : 0;
    });
  const range = `from ${data.from} to ${data.to}`;
  const chart = (title: string, chartOf: HTMLElement): HTMLElement =>
    h('div', { class: 'chart-block' }, h('h3', {}, title), chartOf);
  return section(
    vendor,
    chart(
      'Characters per day',
      barChart({
        labels: data.days,
        series: [
          {
            name: 'synthesized at the vendor',
            className: 'bar-synth',
            values: value((f) => f.synthesized_chars),
          },
          { name: 'served from cache', className: 'bar-cached', values: value((f) => f.cached_chars) },
        ],
        summary: `${vendor}: characters synthesized and served from cache per day ${range}.`,
        format: compact,
      }),
    ),
    chart(
      'Share of sentences from the cache',
      barChart({
        labels: data.days,
        series: [
          {
            name: 'sentences from cache (%)',
            className: 'bar-cached',
            values: value((f) => (f.cache_share === null ? null : Math.round(f.cache_share * 1000) / 10)),
          },
        ],
        summary: `${vendor}: the share of sentences served from cache per day ${range}, in percent.`,
        format: (v) => `${v} %`,
      }),
    ),
    chart(
      `Estimated saving (${data.currency})`,
      barChart({
        labels: data.days,
        series: [{ name: 'saved', className: 'bar-cached', values: value((f) => f.saved) }],
        summary: `${vendor}: the estimated vendor cost saved by the cache per day ${range}, in ${data.currency}.`,
        // Savings can be fractions of a cent: the axis keeps their significant digits.
        format: (v) => new Intl.NumberFormat('en', { maximumSignificantDigits: 3 }).format(v),
      }),
    ),
    chart(
      'Time to first audio (ms)',
      barChart({
        labels: data.days,
        series: [
          { name: 'p50', className: 'bar-cached', values: value((f) => f.first_audio_p50_ms) },
          {
            name: 'p95 (above p50)',
            className: 'bar-synth',
            values: value((f) =>
              f.first_audio_p95_ms === null ? null : f.first_audio_p95_ms - (f.first_audio_p50_ms ?? 0),
            ),
          },
        ],
        summary: `${vendor}: time to first audio per day ${range}: the median, and the 95th percentile on top.`,
        format: compact,
      }),
    ),
    figureTable(
      `${vendor} per day (the charts' numbers)`,
      ['Day'],
      data.days
        .filter((day) => perDay.has(day))
        .reverse()
        .map((day) => ({ cells: [day], f: perDay.get(day) as BreakdownFigures })),
      data.currency,
    ),
  );
}

export const breakdownsPage: Page = {
  title: 'Breakdowns',
  async render() {
    const body = h('div', {});
    const from = dateInput('From (UTC day)');
    const to = dateInput('To (UTC day, included)');
    const load = async (): Promise<void> => {
      const params = new URLSearchParams();
      if (from.input.value) params.set('from', from.input.value);
      if (to.input.value) params.set('to', to.input.value);
      from.setError(null);
      try {
        const data = await call<Breakdowns>('GET', `/api/breakdowns${params.size > 0 ? `?${params}` : ''}`);
        from.input.value = data.from;
        to.input.value = data.to;
        body.replaceChildren(render(data));
      } catch (error) {
        from.setError(messageOf(error));
      }
    };
    const render = (data: Breakdowns): HTMLElement =>
      h(
        'div',
        { 'data-testid': 'breakdowns' },
        h('p', { class: 'hint' }, `From ${data.from} to ${data.to} (UTC), from the request log.`),
        ...(data.vendors.length === 0
          ? [h('p', {}, 'No requests in this period.')]
          : [
              section(
                'Per vendor',
                figureTable(
                  'Each vendor over the period',
                  ['Vendor'],
                  data.vendors.map((f) => ({ cells: [f.vendor], f })),
                  data.currency,
                ),
              ),
              ...data.vendors.map((v) => vendorSection(v.vendor, data)),
              section(
                'Per API key',
                figureTable(
                  'Each API key over the period',
                  ['API key'],
                  data.keys.map((f) => ({ cells: [keyName(f.key)], f })),
                  data.currency,
                ),
              ),
              section(
                'Per model',
                figureTable(
                  'Each model over the period',
                  ['Vendor', 'Model'],
                  data.models.map((f) => ({ cells: [f.vendor, f.model || '(not named)'], f })),
                  data.currency,
                ),
              ),
              section(
                'Per voice',
                figureTable(
                  'Each voice over the period',
                  ['Vendor', 'Voice'],
                  data.voices.map((f) => ({ cells: [f.vendor, f.voice || '(not named)'], f })),
                  data.currency,
                ),
              ),
            ]),
      );
    await load();
    return h(
      'div',
      {},
      h(
        'form',
        {
          class: 'filters',
          'aria-label': 'Date range',
          onsubmit: (event: Event) => {
            event.preventDefault();
            void load();
          },
        },
        from.wrapper,
        to.wrapper,
        h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Show this range')),
      ),
      body,
    );
  },
};
