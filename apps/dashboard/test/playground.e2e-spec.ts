import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { call, createOrgWithMember, eventually, launchChromium, readE2eStack, signIn } from '@router/testing';
import { axeScan, LONG_MS, SHOTS, TEST_MS, WIDTHS } from './page-checks';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const TEXT = 'The playground says this first. Then it says this second.';

/**
 * The playground in Chromium: a vendor, model, language and voice picked from the catalogue, two sentences said
 * through the router's `/v1/stream` with the member's session (the page's own CSP in force), each shown as
 * synthesized with its time to first audio; said again, both from the cache. Screenshots and axe at desktop
 * and phone width.
 */
describe('dashboard playground (e2e)', () => {
  const org = createOrgWithMember(stack.adminUrl, 'playground');
  let browser: Browser;
  let cookie: { name: string; value: string } = { name: '', value: '' };
  let headers: Record<string, string> = {};

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const owner = await signIn(gw, org.email, org.code);
    headers = { cookie: owner.cookie, 'x-csrf-token': owner.csrf };
    await call(gw, 'PUT', '/v1/provider-keys/vendor_a', {
      headers,
      body: { api_key: `playground-vendor-a-${Date.now()}` },
    });
    const [name, value] = owner.cookie.split('=') as [string, string];
    cookie = { name, value };
    browser = await launchChromium();
  }, TEST_MS);

  afterAll(async () => {
    await browser?.close();
  });

  const newPage = async (viewport: { width: number; height: number }, bypassCSP: boolean): Promise<Page> => {
    const context = await browser.newContext({ viewport, bypassCSP });
    await context.addCookies([{ ...cookie, url: gw }]);
    const page = await context.newPage();
    await page.goto(`${gw}/dashboard/playground`);
    await page.getByRole('heading', { level: 1, name: 'Playground' }).waitFor();
    await page.locator('.loading').waitFor({ state: 'detached' });
    return page;
  };

  /** Picks vendor_a's first model in en-IN with the voice aarila, says TEXT, and waits for it to be done. */
  const say = async (page: Page, spokenBefore: number): Promise<Array<{ cached: string; said: string }>> => {
    await page.getByLabel('Vendor').selectOption('vendor_a');
    await page.getByLabel('Model').selectOption('a_model_1');
    await page.getByLabel('Language').selectOption('en-IN');
    await page.getByLabel('Voice').selectOption('aarila');
    await page.getByLabel('Text').fill(TEXT);
    await page.getByRole('button', { name: 'Speak' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Done: 2 sentences spoken.' })
      .waitFor({ timeout: LONG_MS });
    const items = page.getByRole('log', { name: 'Sentences spoken' }).locator('li');
    expect(await items.count()).toBe(spokenBefore + 2);
    const said = [];
    for (let i = spokenBefore; i < spokenBefore + 2; i++) {
      const item = items.nth(i);
      said.push({
        cached: (await item.getAttribute('data-cached')) ?? '',
        said: (await item.textContent()) ?? '',
      });
    }
    return said;
  };

  it(
    'says two sentences, each synthesized with its first audio time; said again, both come from the cache',
    async () => {
      // The page's own Content-Security-Policy in force: the socket to the router's origin is allowed.
      const page = await newPage(WIDTHS.desktop, false);
      const first = await say(page, 0);
      expect(first.map((s) => s.cached)).toEqual(['false', 'false']);
      for (const [i, s] of first.entries()) {
        expect(s.said).toMatch(new RegExp(`^Sentence ${i + 1}: .+ synthesized first audio after \\d+ ms$`));
      }
      expect(first[0]?.said).toContain('The playground says this first.');
      // Committed by cache-service after the reply: said again once both are there.
      await eventually(
        'both sentences cached',
        async () => (await call(gw, 'GET', '/api/cache', { headers })).body.entries === 2,
        LONG_MS,
      );
      const again = await say(page, 2);
      expect(again.map((s) => s.cached)).toEqual(['true', 'true']);
      for (const s of again) expect(s.said).toMatch(/ from the cache first audio after \d+ ms$/);
      await page.screenshot({ path: join(SHOTS, 'playground-spoken-desktop.png'), fullPage: true });
      await page.context().close();
    },
    TEST_MS,
  );

  it.each(Object.keys(WIDTHS) as Array<keyof typeof WIDTHS>)(
    'at %s width: a screenshot after speaking, no sideways scrolling, and no accessibility violation',
    async (width) => {
      const page = await newPage(WIDTHS[width], true);
      try {
        expect((await say(page, 0)).map((s) => s.cached)).toEqual(['true', 'true']);
        await page.screenshot({ path: join(SHOTS, `playground-${width}.png`), fullPage: true });
        const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
        expect({ width, overflow }).toEqual({ width, overflow: 0 });
        expect({ width, violations: await axeScan(page) }).toEqual({ width, violations: [] });
      } finally {
        await page.context().close();
      }
    },
    TEST_MS,
  );
});
