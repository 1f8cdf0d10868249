import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { SimControl } from '@router/vendor-sim';
import {
  call,
  createOrgWithMember,
  eventually,
  launchChromium,
  readE2eStack,
  REPO_ROOT,
} from '@router/testing';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const sim = new SimControl(stack.simUrl);
/** Screenshots of every page, for a person to look at (not committed). */
const SHOTS = join(REPO_ROOT, 'tmp', 'dashboard-screenshots');

const speech = (key: string, input: string) =>
  call(gw, 'POST', '/v1/audio/speech', {
    key,
    body: { model: 'vendor_a/a_model_1', voice: 'aarila', language: 'en-IN', response_format: 'mp3', input },
  });

/**
 * The dashboard driven in headless Chromium through the gateway, as a member uses it: sign in, store a vendor
 * key, issue an API key and speak with it, read the savings after a cached replay, turn caching off.
 */
describe('dashboard in a browser (e2e)', () => {
  const member = createOrgWithMember(stack.adminUrl, 'browser');
  const vendorKey = `browser-vendor-a-${Date.now()}`;
  let browser: Browser;
  let page: Page;
  let apiKey = '';

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const open = async (path: string, title: string) => {
    await page.goto(`${gw}/dashboard${path}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.locator('.loading').waitFor({ state: 'detached' });
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('signs in with the one-time code, saying a wrong one in words next to the field', async () => {
    await page.goto(`${gw}/dashboard/`);
    await page.getByLabel('Email address').fill(member.email);
    await page.getByLabel('Sign-in code').fill('ABCDE-FGHJK-MNPQR');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const codeField = page.getByLabel('Sign-in code');
    await expectText(page.locator('.field-error:visible'), 'do not match');
    expect(await codeField.getAttribute('aria-invalid')).toBe('true');
    await shot('sign-in-error');
    await codeField.fill(member.code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage and savings' }).waitFor();
    await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
  });

  it('stores a vendor key, showing only its last characters', async () => {
    await open('/provider-keys', 'Vendor keys');
    const card = page.locator('section.card', { has: page.getByRole('heading', { name: /vendor_a/ }) });
    await card.getByLabel('vendor_a key').fill(vendorKey);
    await card.getByRole('button', { name: 'Store key' }).click();
    await expectText(card.locator('.state'), `ends in ${vendorKey.slice(-4)}`);
    expect(await page.content()).not.toContain(vendorKey);
    await expectText(card, 'POST /v1/audio/speech');
    await shot('vendor-keys');
  });

  it('issues an API key shown once, which speaks on /v1/audio/speech, and shows when it was last used', async () => {
    await open('/keys', 'API keys');
    await page.getByRole('button', { name: 'Issue a new key' }).click();
    apiKey = (await page.getByTestId('new-key').textContent()) ?? '';
    expect(apiKey).toMatch(/^rtr_[\w-]{43}$/);
    await shot('api-keys-issued');

    const said = await speech(apiKey, 'The dashboard issued this key.');
    expect(said.status).toBe(200);
    expect(said.headers.get('content-type')).toBe('audio/mpeg');
    expect(await sim.callCount('vendor_a', { key: vendorKey })).toBe(1);

    await eventually('the key list shows a last use', async () => {
      await open('/keys', 'API keys');
      const row = page.locator('tbody tr', { hasText: apiKey.slice(0, 10) });
      return !(await row.locator('td[data-label="Last used"]').textContent())?.includes('never');
    });
    expect(await page.content()).not.toContain(apiKey);
    await shot('api-keys');
  });

  it('shows what a cached replay saved, in the totals and the chart', async () => {
    const replay = await speech(apiKey, 'The dashboard issued this key.');
    expect(replay.status).toBe(200);
    expect(await sim.callCount('vendor_a', { key: vendorKey })).toBe(1);
    const chars = 'The dashboard issued this key.'.length;
    await eventually('the usage page counts the replay', async () => {
      await open('/', 'Usage and savings');
      return (await page.getByTestId('cached-chars').textContent()) === chars.toLocaleString('en-US');
    });
    expect(await page.getByTestId('cache-share').textContent()).toBe('50.0 %');
    // vendor_a at 15 per million characters (the stack's VENDOR_PRICES).
    expect(await page.getByTestId('saved').textContent()).toContain(
      ((chars * 15) / 1e6).toFixed(4).slice(0, 5),
    );
    const chart = page.locator('figure.chart svg');
    expect(await chart.getAttribute('aria-label')).toContain(`${chars} served from cache`);
    expect(await page.locator('figure.chart rect.bar-cached').count()).toBe(30);
    const vendorRow = page.locator('tbody tr', { hasText: 'vendor_a' }).first();
    expect(await vendorRow.locator('td[data-label="Sentences from cache"]').textContent()).toBe('50.0 %');
    await shot('usage');
  });

  it('sets retention to 0, says what it means, and nothing is cached or replayed after', async () => {
    await open('/retention', 'Retention');
    const days = page.getByLabel('Retention in days');
    await days.fill('4000');
    await page.getByRole('button', { name: 'Save retention' }).click();
    await expectText(
      page.locator('.field-error:visible'),
      '0 (caching off) or a whole number of days from 1 to 3650',
    );
    await days.fill('0');
    await page.getByRole('button', { name: 'Save retention' }).click();
    await expectText(page.getByTestId('retention-now'), 'Caching is off');
    await shot('retention');

    // The sentence cached before now goes to the vendor every time, and is not cached again.
    const before = await sim.callCount('vendor_a', { key: vendorKey });
    await eventually('a replay reaches the vendor', async () => {
      expect((await speech(apiKey, 'The dashboard issued this key.')).status).toBe(200);
      return (await sim.callCount('vendor_a', { key: vendorKey })) > before;
    });
    const after = await sim.callCount('vendor_a', { key: vendorKey });
    expect((await speech(apiKey, 'The dashboard issued this key.')).status).toBe(200);
    expect(await sim.callCount('vendor_a', { key: vendorKey })).toBe(after + 1);
  });

  it('shows the credit state and what happens at zero', async () => {
    await open('/credit', 'Credit');
    expect(await page.getByTestId('credit-state').textContent()).toBe('In credit');
    await expectText(page.locator('main'), 'refused with HTTP 402');
    await shot('credit');
  });

  it('fits a phone: no sideways scrolling on any page, every control reachable by keyboard', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const [path, title] of [
      ['/', 'Usage and savings'],
      ['/keys', 'API keys'],
      ['/provider-keys', 'Vendor keys'],
      ['/retention', 'Retention'],
      ['/credit', 'Credit'],
    ] as const) {
      await open(path, title);
      const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      expect({ path, overflow }).toEqual({ path, overflow: 0 });
      await shot(`phone${path === '/' ? '-usage' : path.replace('/', '-')}`);
    }
    // Keyboard: Tab from the top reaches the skip link, then the navigation.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate("document.activeElement?.closest('nav') !== null")).toBe(true);
  });

  it('signs out, after which the pages ask to sign in again', async () => {
    await page.setViewportSize({ width: 1100, height: 800 });
    await open('/keys', 'API keys');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.goto(`${gw}/dashboard/keys`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await shot('signed-out');
  });
});

/** Waits for a locator's text to contain `text` (the page renders after its API answers). */
async function expectText(locator: import('playwright-core').Locator, text: string): Promise<void> {
  await eventually(
    `"${text}" shown`,
    async () => ((await locator.first().textContent()) ?? '').includes(text),
    5000,
  );
}
