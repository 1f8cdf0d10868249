import { h, svg } from './dom';

const HEIGHT = 220;
const PAD = { top: 12, right: 12, bottom: 28 };
/** Roughly how wide a character of the 12 px tick labels is (a little more), to leave room for each. */
const CHAR_PX = 7;
/** The least space between two labels. */
const GAP_PX = 12;

export interface Series {
  name: string;
  /** The CSS class that colours its bars and its key (`bar-synth`, `bar-cached`, …). */
  className: string;
  values: number[];
}

/**
 * Stacked bars, one per label (a day), with the values' axis on the left and labels under the first, middle and
 * last bars. Drawn at the pixel width of its box and again when that changes, so its text is never stretched
 * and a phone gets as many labels as fit. The table after each chart holds the same numbers for anyone who
 * cannot see the bars; `summary` says what the chart shows, for a screen reader.
 */
export function barChart(options: {
  labels: string[];
  series: Series[];
  summary: string;
  format: (value: number) => string;
}): HTMLElement {
  const box = h('div', { class: 'chart-box' });
  let drawnWidth = 0;
  const draw = (width: number): void => {
    if (width <= 0 || width === drawnWidth) return;
    drawnWidth = width;
    box.replaceChildren(drawBars(width, options));
  };
  new ResizeObserver((entries) => {
    for (const entry of entries) draw(Math.floor(entry.contentRect.width));
  }).observe(box);
  return h(
    'figure',
    { class: 'chart' },
    box,
    h(
      'figcaption',
      {},
      ...options.series.flatMap((s) => [
        h('span', { class: `key ${s.className}`, 'aria-hidden': 'true' }),
        ` ${s.name} `,
      ]),
    ),
  );
}

function drawBars(
  width: number,
  options: { labels: string[]; series: Series[]; summary: string; format: (value: number) => string },
): SVGElement {
  const { labels, series, format } = options;
  const totals = labels.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const ticks = niceTicks(Math.max(0, ...totals));
  const top = ticks.at(-1) ?? 1;
  const left = 8 + CHAR_PX * Math.max(...ticks.map((t) => format(t).length));
  const plotWidth = Math.max(1, width - left - PAD.right);
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const base = PAD.top + plotHeight;
  const slot = plotWidth / Math.max(1, labels.length);
  const bar = Math.max(1, slot * 0.7);
  const y = (value: number): number => base - (value / top) * plotHeight;
  const grid = ticks.flatMap((tick) => [
    svg('line', {
      x1: left,
      x2: width - PAD.right,
      y1: y(tick),
      y2: y(tick),
      class: tick === 0 ? 'axis' : 'grid',
    }),
    svg('text', { x: left - 6, y: y(tick) + 4, class: 'tick', 'text-anchor': 'end' }, format(tick)),
  ]);
  const bars = labels.flatMap((_, i) => {
    const x = left + i * slot + (slot - bar) / 2;
    let stacked = 0;
    return series.map((s) => {
      const value = s.values[i] ?? 0;
      const rect = svg('rect', {
        x,
        y: y(stacked + value),
        width: bar,
        height: (value / top) * plotHeight,
        class: s.className,
      });
      stacked += value;
      return rect;
    });
  });
  return svg(
    'svg',
    { width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`, role: 'img', 'aria-label': options.summary },
    ...grid,
    ...bars,
    ...labelTicks(labels, left, slot, plotWidth),
  );
}

/**
 * Labels under the bars: the first and the last always, and between them as many as fit, evenly, each under
 * its bar's middle but kept inside the plot, and never touching another.
 */
function labelTicks(labels: string[], left: number, slot: number, plotWidth: number): SVGElement[] {
  if (labels.length === 0) return [];
  const widthOf = (label: string): number => CHAR_PX * label.length;
  const widest = Math.max(...labels.map(widthOf)) + GAP_PX;
  const step = Math.max(1, Math.ceil(labels.length / Math.max(1, Math.floor(plotWidth / widest))));
  const candidates = new Set<number>([0, labels.length - 1]);
  for (let i = step; i < labels.length - 1; i += step) candidates.add(i);
  const placed: Array<{ index: number; from: number; to: number }> = [];
  for (const index of [...candidates].sort((a, b) => a - b)) {
    const half = widthOf(labels[index] ?? '') / 2;
    const middle = left + (index + 0.5) * slot;
    const centre = Math.min(Math.max(middle, left + half), left + plotWidth - half);
    const box = { index, from: centre - half, to: centre + half };
    const before = placed.at(-1);
    if (before && before.to + GAP_PX > box.from) {
      // The last label wins over the one before it; any other waits for the next that fits.
      if (index !== labels.length - 1 || placed.length === 1) continue;
      placed.pop();
    }
    placed.push(box);
  }
  return placed.map(({ index, from, to }) =>
    svg(
      'text',
      { x: (from + to) / 2, y: HEIGHT - 8, class: 'tick', 'text-anchor': 'middle' },
      labels[index] ?? '',
    ),
  );
}

/** 0 and three or four round steps reaching at least `max` (1, 2, 2.5 or 5 times a power of ten). */
export function niceTicks(max: number): number[] {
  if (max <= 0) return [0, 1];
  const rough = max / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
  const ticks: number[] = [];
  for (let t = 0; t < max + step; t += step) {
    ticks.push(Number(t.toPrecision(12)));
    if (t >= max) break;
  }
  return ticks;
}

/** A count in few characters for an axis: 950, 1.2k, 3.4M. */
export function compact(value: number): string {
  return new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
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
