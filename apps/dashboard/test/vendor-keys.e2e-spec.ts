import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { SimControl } from '@router/vendor-sim';
import {
  adminCli,
  call,
  createOrgWithMember,
  eventually,
  launchChromium,
  readE2eStack,
  signIn,
} from '@router/testing';
import { axeScan, LONG_MS, SHOTS, TEST_MS, WIDTHS } from './page-checks';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const sim = new SimControl(stack.simUrl);

/**
 * The vendor-key table in Chromium: a row per vendor (last four, updated, what it enables, last error), and
 * "test this key", which makes a real vendor call (the simulator refuses keys starting with "bad") and says
 * the outcome in words; the failure stays as the key's last error until a test passes or a key is stored.
 */
describe('dashboard vendor keys (e2e)', () => {
  const org = createOrgWithMember(stack.adminUrl, 'vendor-keys');
  const stamp = Date.now();
  const goodA = `good-vendor-a-${stamp}-GOOD`;
  const badA = `bad-vendor-a-${stamp}-XBAD`;
  const goodB = `good-vendor-b-${stamp}`;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: WIDTHS.desktop, bypassCSP: true });
    const session = await signIn(gw, org.email, org.code);
    const [name, value] = session.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: gw }]);
    page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
  });

  const open = async (): Promise<void> => {
    await page.goto(`${gw}/dashboard/provider-keys`);
    await page.getByRole('heading', { level: 1, name: 'Vendor keys' }).waitFor();
    await page.locator('.loading').waitFor({ state: 'detached' });
  };
  const row = (vendor: string): Locator => page.locator('tbody tr', { hasText: `${vendor} (` });
  const cell = (vendor: string, column: string): Locator => row(vendor).locator(`td[data-label="${column}"]`);
  const store = async (vendor: string, key: string): Promise<void> => {
    await page.getByLabel('Vendor', { exact: true }).selectOption(vendor);
    await page.getByLabel('Key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Store key' }).click();
    await expectText(cell(vendor, 'Key'), `ends in ${key.slice(-4)}`);
  };
  const testKey = async (vendor: string): Promise<string> => {
    await page.getByRole('button', { name: `Test this key for ${vendor}` }).click();
    // A test is a vendor call through a worker: as long as the machine takes, within the test's own time.
    await eventually(
      'the outcome is said',
      async () => /^(Passed|Failed):/.test((await page.getByRole('status').first().textContent()) ?? ''),
      LONG_MS,
    );
    return (await page.getByRole('status').first().textContent()) ?? '';
  };

  it(
    'shows one table, a row per vendor: no key stored, what each enables, and no test for a missing key',
    async () => {
      await open();
      expect(await page.locator('tbody tr').count()).toBe(10);
      expect(await cell('vendor_c', 'Key').textContent()).toBe('none stored');
      await expectText(cell('vendor_c', 'Enables'), 'the vendor_c drop-in at /vendor_c');
      expect(await page.getByRole('button', { name: 'Test this key for vendor_c' }).count()).toBe(0);
    },
    TEST_MS,
  );

  it(
    'tests a bad key with a one-word synthesis: the refusal in words, kept as the last error',
    async () => {
      await store('vendor_a', badA);
      // The vendor's own refusal (its HTTP status): the call reached it.
      const said = await testKey('vendor_a');
      expect(said).toMatch(
        /Failed: vendor_a refused the key \(HTTP 40[13]\): check that it was copied whole/,
      );
      await expectText(cell('vendor_a', 'Last error'), 'vendor_a refused the key');
      // Focus stays on the button pressed, drawn again with the table.
      expect(await page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe(
        'Test this key for vendor_a',
      );
      await open();
      await expectText(cell('vendor_a', 'Last error'), 'vendor_a refused the key');
      for (const [width, viewport] of Object.entries(WIDTHS)) {
        await page.setViewportSize(viewport);
        await page.screenshot({ path: join(SHOTS, `vendor-keys-error-${width}.png`), fullPage: true });
        expect({ width, violations: await axeScan(page) }).toEqual({ width, violations: [] });
      }
      await page.setViewportSize(WIDTHS.desktop);
      expect(await page.content()).not.toContain(badA);
    },
    TEST_MS,
  );

  it(
    'a good key stored again clears the last error; its test speaks one word, uncached, each time',
    async () => {
      await store('vendor_a', goodA);
      expect(await cell('vendor_a', 'Last error').textContent()).toBe('none');
      for (const _ of [1, 2]) {
        const before = await sim.callCount('vendor_a', { key: goodA });
        const said = await testKey('vendor_a');
        expect(said).toContain('Passed: vendor_a accepted the key: it spoke the test word');
        // Never a cache hit: every test reaches the vendor.
        expect(await sim.callCount('vendor_a', { key: goodA })).toBe(before + 1);
      }
      await expectText(cell('vendor_a', 'Last error'), 'none; passed its test');
    },
    TEST_MS,
  );

  it(
    'tests a key by its voice list where the vendor reads voices live',
    async () => {
      await store('vendor_b', goodB);
      const before = await sim.readCount('vendor_b', { key: goodB });
      const said = await testKey('vendor_b');
      expect(said).toMatch(
        /Passed: vendor_b accepted the key: it listed \d+ voices? for it \(nothing billed\)/,
      );
      expect(await sim.readCount('vendor_b', { key: goodB })).toBeGreaterThan(before);
      expect(await page.content()).not.toContain(goodB);
    },
    TEST_MS,
  );

  it(
    'says so when a vendor has no call the router can make without a voice',
    async () => {
      await store('vendor_h', `good-vendor-h-${stamp}`);
      const said = await testKey('vendor_h');
      expect(said).toContain('Failed: vendor_h has no call the router can make');
      expect(await cell('vendor_h', 'Last error').textContent()).toBe('none');
    },
    TEST_MS,
  );

  it(
    "keeps a vendor's refusal of real traffic as the key's last error, in words",
    async () => {
      const badD = `bad-vendor-d-${stamp}-DBAD`;
      await store('vendor_d', badD);
      const issued = adminCli(stack.adminUrl, ['key', 'issue', org.orgId, '--json']);
      expect(issued.code).toBe(0);
      const sentence = `A refused sentence ${stamp}.`;
      const refused = await call(gw, 'POST', '/v1/audio/speech', {
        key: issued.json.key as string,
        body: { model: 'vendor_d/d_model_3', voice: 'brook', response_format: 'pcm', input: sentence },
      });
      expect(refused.body?.error?.code).toBe('provider_rejected');
      // Written by the worker off the reply path: shown once the row has it.
      await eventually('the last error is shown', async () => {
        await open();
        return ((await cell('vendor_d', 'Last error').textContent()) ?? '').includes(
          'vendor_d refused the key (HTTP',
        );
      });
      const content = await page.content();
      expect(content).not.toContain(sentence);
      expect(content).not.toContain(badD);
    },
    TEST_MS,
  );

  it(
    'lets a member test a key but not store or delete one',
    async () => {
      const owner = await signIn(gw, org.email, newCode(org.email));
      const headers = { cookie: owner.cookie, 'x-csrf-token': owner.csrf };
      const invited = await call(gw, 'POST', '/api/members', {
        headers,
        body: { email: `vendor-keys-member-${stamp}@example.com`, role: 'member' },
      });
      const member = await signIn(gw, invited.body.member.email, invited.body.code);
      const memberContext = await browser.newContext({ viewport: WIDTHS.phone, bypassCSP: true });
      try {
        const [name, value] = member.cookie.split('=') as [string, string];
        await memberContext.addCookies([{ name, value, url: gw }]);
        const memberPage = await memberContext.newPage();
        await memberPage.goto(`${gw}/dashboard/provider-keys`);
        await memberPage.getByRole('heading', { level: 1, name: 'Vendor keys' }).waitFor();
        await memberPage.locator('.loading').waitFor({ state: 'detached' });
        expect(await memberPage.getByRole('button', { name: 'Store key' }).count()).toBe(0);
        expect(await memberPage.getByRole('button', { name: 'Delete the vendor_a key' }).count()).toBe(0);
        await memberPage.getByRole('button', { name: 'Test this key for vendor_a' }).click();
        await eventually(
          'the outcome is said',
          async () =>
            ((await memberPage.getByRole('status').first().textContent()) ?? '').startsWith('Passed:'),
          LONG_MS,
        );
        await memberPage.screenshot({ path: join(SHOTS, 'vendor-keys-member-phone.png'), fullPage: true });
        expect(await axeScan(memberPage)).toEqual([]);
      } finally {
        await memberContext.close();
      }
    },
    TEST_MS,
  );
});

/** A new one-time code for a member, as the operator prints it. */
function newCode(email: string): string {
  return adminCli(stack.adminUrl, ['member', 'code', email, '--json']).json.code as string;
}

/** Waits for a locator's text to contain `text` (the page renders after its API answers). */
async function expectText(locator: Locator, text: string): Promise<void> {
  await eventually(`"${text}" shown`, async () =>
    ((await locator.first().textContent()) ?? '').includes(text),
  );
}
