import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { SimControl } from '@router/vendor-sim';
import { call, createOrgWithMember, eventually, launchChromium, readE2eStack, signIn } from '@router/testing';
import { axeScan, LONG_MS, SHOTS, TEST_MS, WIDTHS } from './page-checks';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const sim = new SimControl(stack.simUrl);
const SENTENCES = ['The cache page counts this sentence.', 'It never shows what was said.'];

/**
 * The cache page in Chromium: entries and bytes per vendor after two sentences are cached, the retention
 * preview (what a change would delete, before it is saved, and nothing saved), and the purge, confirmed, after
 * which the same sentence reaches the vendor again. No page shows a sentence's text.
 */
describe('dashboard cache (e2e)', () => {
  const org = createOrgWithMember(stack.adminUrl, 'cache-page');
  const vendorKey = `cache-page-vendor-a-${Date.now()}`;
  let apiKey = '';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let headers: Record<string, string> = {};

  const speak = (input: string) =>
    call(gw, 'POST', '/v1/audio/speech', {
      key: apiKey,
      body: {
        model: 'vendor_a/a_model_1',
        voice: 'aarila',
        language: 'en-IN',
        response_format: 'mp3',
        input,
      },
    });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const owner = await signIn(gw, org.email, org.code);
    headers = { cookie: owner.cookie, 'x-csrf-token': owner.csrf };
    await call(gw, 'PUT', '/v1/provider-keys/vendor_a', { headers, body: { api_key: vendorKey } });
    apiKey = (await call(gw, 'POST', '/api/keys', { headers, body: { name: 'cache page' } })).body.key;
    for (const sentence of SENTENCES) expect((await speak(sentence)).status).toBe(200);
    // Committed by cache-service after the reply: counted once both rows are there.
    await eventually(
      'both sentences cached',
      async () => (await call(gw, 'GET', '/api/cache', { headers })).body.entries === 2,
      LONG_MS,
    );
    browser = await launchChromium();
    context = await browser.newContext({ viewport: WIDTHS.desktop, bypassCSP: true });
    const [name, value] = owner.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: gw }]);
    page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
  }, TEST_MS);

  afterAll(async () => {
    await browser?.close();
  });

  const open = async (path: string, title: string): Promise<void> => {
    await page.goto(`${gw}/dashboard${path}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.locator('.loading').waitFor({ state: 'detached' });
  };
  const noSentenceText = async (): Promise<void> => {
    const html = await page.content();
    for (const sentence of SENTENCES) expect(html).not.toContain(sentence);
  };

  it(
    'shows entries and bytes per vendor, at both widths, with no accessibility violation',
    async () => {
      await open('/cache', 'Cache');
      const row = page.locator('tbody tr', { hasText: 'vendor_a' });
      expect(await row.locator('td[data-label="Entries"]').textContent()).toBe('2');
      expect(await row.locator('td[data-label="Audio held"]').textContent()).toMatch(
        /^\d+(\.\d)? (bytes|KB|MB)$/,
      );
      await expectText(page.getByTestId('cache-total'), 'holds 2 entries');
      for (const [width, viewport] of Object.entries(WIDTHS)) {
        await page.setViewportSize(viewport);
        await page.screenshot({ path: join(SHOTS, `cache-${width}.png`), fullPage: true });
        expect({ width, violations: await axeScan(page) }).toEqual({ width, violations: [] });
      }
      await page.setViewportSize(WIDTHS.desktop);
      await noSentenceText();
    },
    TEST_MS,
  );

  it(
    'previews what a retention change would delete before it is saved, and saves nothing',
    async () => {
      const saved = (await call(gw, 'GET', '/api/org', { headers })).body.retention_days as number;
      await open('/retention', 'Retention');
      const field = page.getByLabel('Retention in days');
      await field.fill('0');
      await page.getByRole('button', { name: 'Preview what it deletes' }).click();
      await expectText(page.getByTestId('retention-preview'), 'Saving 0 days would delete 2 entries');
      const row = page.getByTestId('retention-preview').locator('tbody tr', { hasText: 'vendor_a' });
      expect(await row.locator('td[data-label="Entries"]').textContent()).toBe('2');
      await page.screenshot({ path: join(SHOTS, 'retention-preview-desktop.png'), fullPage: true });
      expect(await axeScan(page)).toEqual([]);
      await field.fill('30');
      await page.getByRole('button', { name: 'Preview what it deletes' }).click();
      await expectText(
        page.getByTestId('retention-preview'),
        'Saving 30 days would delete nothing cached now.',
      );
      await field.fill('-1');
      await page.getByRole('button', { name: 'Preview what it deletes' }).click();
      await expectText(page.locator('.field-error:visible'), 'Enter 0 (caching off)');
      // Values that are not one whole number in range are refused by name, a repeated parameter too.
      for (const query of [
        '',
        '?retention_days=abc',
        '?retention_days=-1',
        '?retention_days=1&retention_days=2',
      ]) {
        const refused = await call(gw, 'GET', `/api/cache/retention-preview${query}`, { headers });
        expect([query, refused.status, refused.body.error.message]).toEqual([
          query,
          400,
          expect.stringContaining('retention_days'),
        ]);
      }
      // Nothing was saved, and nothing deleted.
      expect((await call(gw, 'GET', '/api/org', { headers })).body.retention_days).toBe(saved);
      expect((await call(gw, 'GET', '/api/cache', { headers })).body.entries).toBe(2);
      await noSentenceText();
    },
    TEST_MS,
  );

  it(
    'purges the cache after a confirmation: the same sentence reaches the vendor again, and the audit says who',
    async () => {
      const before = await sim.callCount('vendor_a', { key: vendorKey });
      expect((await speak(SENTENCES[0])).status).toBe(200);
      expect(await sim.callCount('vendor_a', { key: vendorKey })).toBe(before);
      await open('/cache', 'Cache');
      await page.getByRole('button', { name: 'Purge the cache' }).click();
      await expectText(page.getByRole('status').first(), 'Purged 2 entries');
      await expectText(page.getByTestId('cache-total'), 'holds 0 entries');
      await eventually(
        'a purged sentence reaches the vendor',
        async () => {
          expect((await speak(SENTENCES[0])).status).toBe(200);
          return (await sim.callCount('vendor_a', { key: vendorKey })) > before;
        },
        LONG_MS,
      );
      await open('/audit', 'Audit');
      await expectText(page.locator('tbody'), 'purged the cache');
      await noSentenceText();
    },
    TEST_MS,
  );

  it(
    'shows a member the cache but no purge, at phone width, with no accessibility violation',
    async () => {
      const invited = await call(gw, 'POST', '/api/members', {
        headers,
        body: { email: `cache-member-${Date.now()}@example.com`, role: 'member' },
      });
      const member = await signIn(gw, invited.body.member.email, invited.body.code);
      const memberContext = await browser.newContext({ viewport: WIDTHS.phone, bypassCSP: true });
      try {
        const [name, value] = member.cookie.split('=') as [string, string];
        await memberContext.addCookies([{ name, value, url: gw }]);
        const memberPage = await memberContext.newPage();
        await memberPage.goto(`${gw}/dashboard/cache`);
        await memberPage.getByRole('heading', { level: 1, name: 'Cache' }).waitFor();
        await memberPage.locator('.loading').waitFor({ state: 'detached' });
        expect(await memberPage.getByRole('button', { name: 'Purge the cache' }).count()).toBe(0);
        await expectText(memberPage.locator('.note'), 'Only an owner of the org can purge the cache');
        await memberPage.screenshot({ path: join(SHOTS, 'cache-member-phone.png'), fullPage: true });
        expect(await axeScan(memberPage)).toEqual([]);
      } finally {
        await memberContext.close();
      }
    },
    TEST_MS,
  );
});

/** Waits for a locator's text to contain `text` (the page renders after its API answers). */
async function expectText(locator: Locator, text: string): Promise<void> {
  await eventually(
    `"${text}" shown`,
    async () => ((await locator.first().textContent()) ?? '').includes(text),
    LONG_MS,
  );
}
