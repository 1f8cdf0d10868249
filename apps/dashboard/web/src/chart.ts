import type { Usage } from './api';
import { formatNumber, h, svg } from './dom';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 8 };

/**
 * Characters per day, synthesized at the vendor (bottom) and served from cache (top), as stacked bars. The
 * chart scales to its box (no horizontal scroll on a phone); the table after it holds the same numbers for
 * anyone who cannot see the bars.
 */
export function charsChart(usage: Usage): HTMLElement {
  const max = Math.max(1, ...usage.days.map((d) => d.synthesized_chars + d.cached_chars));
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotWidth / Math.max(1, usage.days.length);
  const bar = Math.max(1, slot * 0.7);
  const bars = usage.days.flatMap((d, i) => {
    const x = PAD.left + i * slot + (slot - bar) / 2;
    const synth = (d.synthesized_chars / max) * plotHeight;
    const cached = (d.cached_chars / max) * plotHeight;
    const base = PAD.top + plotHeight;
    return [
      svg('rect', { x, y: base - synth, width: bar, height: synth, class: 'bar-synth' }),
      svg('rect', { x, y: base - synth - cached, width: bar, height: cached, class: 'bar-cached' }),
    ];
  });
  const first = usage.days[0]?.day ?? usage.from;
  const last = usage.days.at(-1)?.day ?? usage.to;
  const total = usage.totals;
  const label =
    `Characters per day from ${first} to ${last}: ${formatNumber(total.synthesized_chars)} synthesized at the ` +
    `vendor, ${formatNumber(total.cached_chars)} served from cache.`;
  return h(
    'figure',
    { class: 'chart' },
    svg(
      'svg',
      { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': label, preserveAspectRatio: 'none' },
      svg('line', {
        x1: PAD.left,
        x2: WIDTH - PAD.right,
        y1: PAD.top + plotHeight,
        y2: PAD.top + plotHeight,
        class: 'axis',
      }),
      ...bars,
      svg('text', { x: PAD.left, y: HEIGHT - 8, class: 'tick' }, first),
      svg('text', { x: WIDTH - PAD.right, y: HEIGHT - 8, class: 'tick', 'text-anchor': 'end' }, last),
    ),
    h(
      'figcaption',
      {},
      h('span', { class: 'key key-synth', 'aria-hidden': 'true' }),
      ' synthesized at the vendor ',
      h('span', { class: 'key key-cached', 'aria-hidden': 'true' }),
      ' served from cache',
    ),
  );
}

/** A share from 0 to 1 as a percentage, or a dash when there was nothing to share. */
export function percent(share: number | null): string {
  return share === null ? '–' : `${(share * 100).toFixed(1)} %`;
}

export function money(amount: number | null, currency: string): string {
  if (amount === null) return 'no price set';
  return new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 4 }).format(
    amount,
  );
}
