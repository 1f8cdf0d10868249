import type { CacheHoldings, RetentionPreview } from '@router/dashboard-types';
import { call } from './api';
import { formatNumber, h, status } from './dom';
import { messageOf, ownersOnly, type Page, section, table } from './pages';

/** Bytes as a person reads them: 1.5 MB, 320 KB. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${formatNumber(value)} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/** A cache summary in words: "12 entries, 1.5 MB". */
export function heldInWords(held: { entries: number; bytes: number }): string {
  return `${formatNumber(held.entries)} ${held.entries === 1 ? 'entry' : 'entries'}, ${formatBytes(held.bytes)}`;
}

// ---- Cache ----------------------------------------------------------------------------------------

export const cachePage: Page = {
  title: 'Cache',
  async render(ctx) {
    const note = status();
    const list = h('div', {});
    const total = h('p', { 'data-testid': 'cache-total' });
    const refresh = async (): Promise<void> => {
      const held = await call<CacheHoldings>('GET', '/api/cache');
      total.textContent = `The cache holds ${heldInWords(held)} of audio for this org.`;
      list.replaceChildren(
        held.vendors.length === 0
          ? h('p', {}, 'Nothing is cached yet.')
          : table(
              'Cache held per vendor',
              ['Vendor', 'Entries', 'Audio held'],
              held.vendors.map((v) => [v.provider, formatNumber(v.entries), formatBytes(v.bytes)]),
            ),
      );
    };
    const purge = async (): Promise<void> => {
      if (
        !window.confirm(
          'Purge the whole cache of this org? Every sentence is synthesized (and billed) by the vendor again ' +
            'the next time it is said.',
        )
      ) {
        return;
      }
      try {
        const { evicted } = await call<{ evicted: number }>('DELETE', '/api/cache');
        await refresh();
        note.say(
          `Purged ${formatNumber(evicted)} ${evicted === 1 ? 'entry' : 'entries'}: every surface stops serving ` +
            'them within seconds.',
        );
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
        'What the router keeps of your audio: one entry per sentence said with one set of settings (or per ',
        'drop-in request), under a one-way hash. The text of a sentence is never stored.',
      ),
      total,
      list,
      section(
        'Purge',
        ctx.session.role === 'owner'
          ? h(
              'div',
              {},
              h(
                'p',
                {},
                'Deletes every entry at once, on every surface (native, /v1/stream and the drop-ins). ',
                'To delete less, change retention: its page shows what a change would delete before you save it.',
              ),
              h(
                'button',
                { type: 'button', class: 'danger', onclick: () => void purge() },
                'Purge the cache',
              ),
            )
          : ownersOnly('purge the cache'),
        note.element,
      ),
    );
  },
};

/**
 * The retention page's preview: what saving `days` would delete now, per vendor, in words (a table beside
 * them when anything would go).
 */
export async function retentionPreview(days: number): Promise<HTMLElement> {
  const preview = await call<RetentionPreview>('GET', `/api/cache/retention-preview?retention_days=${days}`);
  const said =
    preview.entries === 0
      ? `Saving ${days} day${days === 1 ? '' : 's'} would delete nothing cached now.`
      : `Saving ${days} day${days === 1 ? '' : 's'} would delete ${heldInWords(preview)} now` +
        (days === 0 ? ' (everything).' : ' (unused for longer than that).');
  return h(
    'div',
    { 'data-testid': 'retention-preview' },
    h('p', {}, said),
    preview.entries === 0
      ? null
      : table(
          'What would be deleted, per vendor',
          ['Vendor', 'Entries', 'Audio'],
          preview.vendors.map((v) => [v.provider, formatNumber(v.entries), formatBytes(v.bytes)]),
        ),
  );
}
