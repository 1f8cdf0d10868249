import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '@router/testing';

/** Screenshots of every page, for a person to look at (not committed). */
/** Every page as a signed-in owner reaches it, by path and heading: the one list the page specs go over. */
export const PAGES = [
  ['/', 'Usage and savings'],
  ['/keys', 'API keys'],
  ['/provider-keys', 'Vendor keys'],
  ['/retention', 'Retention'],
  ['/cache', 'Cache'],
  ['/playground', 'Playground'],
  ['/credit', 'Credit'],
  ['/members', 'Members'],
  ['/audit', 'Audit'],
] as const;

export const SHOTS = join(REPO_ROOT, 'tmp', 'dashboard-screenshots');
/** The widths every page is checked and photographed at. */
export const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 375, height: 800 } } as const;
/** How long a wait on the stack may take on a loaded machine; each test's own limit (TEST_MS) is above it. */
export const LONG_MS = 60_000;
export const TEST_MS = 180_000;

/** axe-core's engine, run in the page (its npm package ships it as one script). */
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * axe-core's accessibility scan of the page as it is now (WCAG 2.x A and AA, and its best practices): its
 * violations, each with the elements it found. The page's context must bypass CSP (axe is evaluated).
 */
export async function axeScan(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate<{ violations: Violation[] }>(
    "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })",
  );
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target })),
  }));
}

/** What the focus ring of the focused element looks like, and its contrast against what is around it. */
export interface FocusRing {
  element: string;
  style: string;
  width: number;
  ratio: number;
}

/**
 * Every control of the page by keyboard, with its focus ring: back with Shift+Tab to the first (the skip link, or
 * whatever comes first), then forward with Tab until focus leaves the page or comes back round, up to `max`
 * stops. For each: the ring's style, width, and its contrast (WCAG's ratio of relative luminances) against the
 * background it is drawn on (the nearest ancestor's that is not transparent; the ring is outside the element).
 */
export async function focusRings(page: Page, max = 80): Promise<FocusRing[]> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Shift+Tab');
    const before = await page.evaluate<boolean>(
      "!document.activeElement || document.activeElement === document.body || document.activeElement.matches('.skip')",
    );
    if (before) break;
  }
  if (await page.evaluate<boolean>("!document.activeElement?.matches('.skip')"))
    await page.keyboard.press('Tab');
  const seen: FocusRing[] = [];
  const names = new Set<string>();
  for (let i = 0; i < max; i++) {
    const ring = await page.evaluate<FocusRing | null>(READ_FOCUS_RING);
    if (ring === null || names.has(ring.element)) break;
    names.add(ring.element);
    seen.push(ring);
    await page.keyboard.press('Tab');
  }
  return seen;
}

/**
 * In the page (plain JS, run by the browser): the focused element's ring, or null when focus is on the page
 * itself.
 */
const READ_FOCUS_RING = String.raw`(() => {
  const element = document.activeElement;
  if (!element || element === document.body) return null;
  const rgba = (colour) => (colour.match(/[\d.]+/g) || []).map(Number);
  const linear = (v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  let background = [255, 255, 255];
  for (let node = element.parentElement; node; node = node.parentElement) {
    const colour = rgba(getComputedStyle(node).backgroundColor);
    if (colour.length < 4 || colour[3] > 0) { background = colour; break; }
  }
  const style = getComputedStyle(element);
  const [light, dark] = [luminance(rgba(style.outlineColor)), luminance(background)].sort((a, b) => b - a);
  const index = [...document.querySelectorAll(element.tagName)].indexOf(element);
  const label = (element.getAttribute('aria-label') || element.textContent || '').trim().slice(0, 40);
  return {
    element: element.tagName.toLowerCase() + '#' + index + ' ' + label,
    style: style.outlineStyle,
    width: parseFloat(style.outlineWidth),
    ratio: Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100,
  };
})()`;

/**
 * Words broken across lines inside table cells: each word of each cell's text is measured as a range, and a
 * word whose range spans more than one line box was broken inside. A line may end after a hyphen, as in print
 * (an address like `browser-1795@example.com`), so the parts of a hyphenated word are measured each.
 */
export function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(String.raw`(() => {
    const broken = [];
    for (const cell of document.querySelectorAll('td, th')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of (node.textContent || '').matchAll(/[^\s-]+-*/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(match[0]);
        }
      }
    }
    return broken;
  })()`);
}

/**
 * The chart's text as drawn: how much each label is scaled from its user units (1 when undistorted), and the
 * values on its axes.
 */
export function chartText(
  page: Page,
): Promise<{ stretched: string[]; scales: number[]; texts: string[]; overlapping: string[] }> {
  return page.evaluate(`(() => {
    const svgs = [...document.querySelectorAll('figure.chart svg')];
    const stretched = svgs
      .filter((s) => (s.getAttribute('preserveAspectRatio') || '').includes('none'))
      .map((s) => s.getAttribute('aria-label') || '');
    const texts = [...document.querySelectorAll('figure.chart svg text')];
    const scales = texts.flatMap((t) => {
      const m = t.getScreenCTM();
      return m ? [Math.round(m.a * 100) / 100, Math.round(m.d * 100) / 100] : [];
    });
    const boxes = texts.map((t) => ({ text: t.textContent || '', box: t.getBoundingClientRect() }));
    const overlapping = boxes.flatMap((a, i) =>
      boxes
        .slice(i + 1)
        .filter((b) => a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom)
        .map((b) => a.text + ' / ' + b.text),
    );
    return { stretched, scales, texts: boxes.map((b) => b.text), overlapping };
  })()`);
}
