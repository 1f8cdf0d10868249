import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Browser, Page } from 'playwright-core';
import { SimControl } from '@router/vendor-sim';
import {
  adminCli,
  call,
  createOrgWithMember,
  eventually,
  launchChromium,
  readE2eStack,
} from '@router/testing';
import { brokenWords, chartText, focusRings, PAGES, SHOTS, TEST_MS } from './page-checks';

const stack = readE2eStack();
const gw = stack.gatewayUrl;
const sim = new SimControl(stack.simUrl);

const speech = (key: string, input: string) =>
  call(gw, 'POST', '/v1/audio/speech', {
    key,
    body: { model: 'vendor_a/a_model_1', voice: 'aarila', language: 'en-IN', response_format: 'mp3', input },
  });

/**
 * The dashboard driven in headless Chromium through the gateway, as a member uses it: sign in, store a vendor
 * key, issue an API key and speak with it, read the savings after a cached replay, turn caching off; and what a
 * browser security and accessibility review looks at.
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
    // Revoking and deleting ask first; the member agrees.
    page.on('dialog', (dialog) => void dialog.accept());
  }, 30_000);

  const cleanups: Array<() => Promise<void>> = [];

  afterAll(async () => {
    await browser?.close();
    for (const cleanup of cleanups) await cleanup();
  });

  it('refuses a sign-in posted from another origin, as a form or as text, and sets no cookie', async () => {
    const context = await browser.newContext();
    try {
      const other = await context.newPage();
      // A page of another site (localhost, where the gateway is 127.0.0.1), which knows a member's address and
      // code (its own org's member, say).
      const csrf = createOrgWithMember(stack.adminUrl, 'browser-csrf');
      const elsewhere = await serveOnePage(
        `<form method="post" action="${gw}/api/session">` +
          `<input name="email" value="${csrf.email}"><input name="code" value="${csrf.code}">` +
          '<button>Go</button></form>',
      );
      cleanups.push(() => elsewhere.close());
      await other.goto(elsewhere.url);
      const [formPost] = await Promise.all([
        other.waitForResponse((r) => r.url() === `${gw}/api/session`),
        other.getByRole('button', { name: 'Go' }).click(),
      ]);
      expect(formPost.status()).toBe(403);
      expect(await formPost.json()).toMatchObject({ error: { code: 'forbidden' } });

      await other.goto(elsewhere.url);
      const [textPost] = await Promise.all([
        other.waitForResponse((r) => r.url() === `${gw}/api/session`),
        other.evaluate(
          ([url, body]) =>
            void fetch(url, { method: 'POST', mode: 'no-cors', credentials: 'include', body }).catch(() => 0),
          [`${gw}/api/session`, JSON.stringify({ email: csrf.email, code: csrf.code })] as const,
        ),
      ]);
      expect(textPost.status()).toBe(403);
      expect(await context.cookies(gw)).toEqual([]);
      // The code was not used up: the member signs in with it on the dashboard itself.
      const own = await context.newPage();
      await own.goto(`${gw}/dashboard/`);
      await own.getByLabel('Email address').fill(csrf.email);
      await own.getByLabel('Sign-in code').fill(csrf.code);
      await own.getByRole('button', { name: 'Sign in' }).click();
      await own.getByRole('heading', { level: 1, name: 'Usage and savings' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('answers a burst of wrong codes with 429, saying in words when to try again', async () => {
    const context = await browser.newContext();
    try {
      const other = await context.newPage();
      const target = createOrgWithMember(stack.adminUrl, 'browser-burst');
      await other.goto(`${gw}/dashboard/`);
      await other.getByLabel('Email address').fill(target.email);
      await other.getByLabel('Sign-in code').fill('ABCDE-FGHJK-MNPQR');
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      // The stack allows 5 sign-ins a minute per address.
      for (let i = 0; i < 6; i++) {
        const [answer] = await Promise.all([
          other.waitForResponse((r) => r.url() === `${gw}/api/session` && r.request().method() === 'POST'),
          other.getByRole('button', { name: 'Sign in' }).click(),
        ]);
        statuses.push(answer.status());
        retryAfter = await answer.headerValue('retry-after');
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      await expectText(other.getByRole('status'), 'Too many sign-in attempts: try again in');
      await other.screenshot({ path: join(SHOTS, 'sign-in-limited.png'), fullPage: true });
    } finally {
      await context.close();
    }
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
    await page.goto(`${gw}/dashboard/`);
    // The form is drawn by the page's script after the load event: on a loaded machine, tabbing at once would
    // walk an empty page.
    await page.getByLabel('Email address').waitFor();
    expectRingsVisible('sign-in', await focusRings(page));
    await page.getByLabel('Email address').fill(member.email);
    await codeField.fill(member.code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Usage and savings' }).waitFor();
    await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
  });

  it('stores a vendor key, showing only its last characters', async () => {
    await open('/provider-keys', 'Vendor keys');
    await page.getByLabel('Vendor', { exact: true }).selectOption('vendor_a');
    await page.getByLabel('Key', { exact: true }).fill(vendorKey);
    await page.getByRole('button', { name: 'Store key' }).click();
    const row = page.locator('tbody tr', { hasText: 'vendor_a' });
    await expectText(row.locator('td[data-label="Key"]'), `ends in ${vendorKey.slice(-4)}`);
    expect(await page.content()).not.toContain(vendorKey);
    await expectText(row.locator('td[data-label="Enables"]'), 'POST /v1/audio/speech');
    await shot('vendor-keys');
  });

  it('deletes a vendor key: focus goes to the key field with its vendor chosen, and the change is announced', async () => {
    await page.getByLabel('Vendor', { exact: true }).selectOption('vendor_b');
    await page.getByLabel('Key', { exact: true }).fill('browser-vendor-b-key-WXYZ');
    await page.getByRole('button', { name: 'Store key' }).click();
    await page.getByRole('button', { name: 'Delete the vendor_b key' }).click();
    await expectText(page.getByRole('status').first(), 'vendor_b key deleted');
    expect(await page.evaluate('document.activeElement?.labels?.[0]?.textContent')).toBe('Key');
    expect(await page.getByLabel('Vendor', { exact: true }).inputValue()).toBe('vendor_b');
    expect(await page.getByRole('button', { name: 'Delete the vendor_b key' }).count()).toBe(0);
  });

  it('issues a named API key shown once, with a copy button, which speaks on /v1/audio/speech, and shows when it was last used', async () => {
    await open('/keys', 'API keys');
    // A name is asked for, in words next to its field.
    await page.getByRole('button', { name: 'Issue a new key' }).click();
    await expectText(page.locator('.field-error:visible'), 'Give the key a name');
    expect(await page.evaluate('document.activeElement?.labels?.[0]?.textContent')).toBe('Name');
    await page.getByLabel('Name', { exact: true }).fill('browser agent');
    await page.getByRole('button', { name: 'Issue a new key' }).click();
    apiKey = (await page.getByTestId('new-key').textContent()) ?? '';
    expect(apiKey).toMatch(/^rtr_[\w-]{43}$/);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gw });
    await page.getByRole('button', { name: 'Copy the key' }).click();
    await expectText(page.locator('.once [role=status]'), 'Copied to the clipboard.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(apiKey);
    const row = page.locator('tbody tr', { hasText: apiKey.slice(0, 10) });
    expect(await row.locator('td[data-label="Name"]').textContent()).toBe('browser agent');
    expect(await row.locator('td[data-label="Expires"]').textContent()).toBe('never');
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
    await chart.waitFor();
    expect(await chart.getAttribute('aria-label')).toContain(`${chars} served from cache`);
    expect(await page.locator('figure.chart rect.bar-cached').count()).toBe(30);
    const vendorRow = page.locator('tbody tr', { hasText: 'vendor_a' }).first();
    expect(await vendorRow.locator('td[data-label="Sentences from cache"]').textContent()).toBe('50.0 %');
    await shot('usage');
  });

  it(
    'draws the chart undistorted at every width, with values on its axes, and breaks no word in a table at 1280 px',
    async () => {
      for (const width of [1280, 768, 375]) {
        await page.setViewportSize({ width, height: 800 });
        await open('/', 'Usage and savings');
        await page.locator('figure.chart svg').waitFor();
        await eventually(
          'the chart is drawn at the new width',
          async () =>
            (await page.locator('figure.chart svg').getAttribute('width')) ===
            String(
              await page
                .locator('.chart-box')
                .evaluate((box) => Math.floor(box.getBoundingClientRect().width)),
            ),
        );
        const drawn = await chartText(page);
        expect({ width, stretched: drawn.stretched }).toEqual({ width, stretched: [] });
        expect(new Set(drawn.scales)).toEqual(new Set([1]));
        expect({ width, overlapping: drawn.overlapping }).toEqual({ width, overlapping: [] });
        // The value axis: 0 and round steps above it; the day axis: the first and last days at least.
        expect(drawn.texts).toContain('0');
        expect(drawn.texts.filter((t) => /^\d+(\.\d)?[KMB]?$/.test(t)).length).toBeGreaterThanOrEqual(3);
        const days = drawn.texts.filter((t) => /^\d{4}-\d\d-\d\d$/.test(t));
        expect(days.length).toBeGreaterThanOrEqual(2);
        if (width === 1280) {
          for (const [path, title] of PAGES) {
            await open(path, title);
            expect({ path, broken: await brokenWords(page) }).toEqual({ path, broken: [] });
          }
        }
      }
      await page.setViewportSize({ width: 1100, height: 800 });
    },
    TEST_MS,
  );

  it(
    'shows a focus ring of at least 3:1 contrast on every control of every page',
    async () => {
      for (const [path, title] of PAGES) {
        await open(path, title);
        expectRingsVisible(path, await focusRings(page));
      }
    },
    TEST_MS,
  );

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

  it('revokes a key: focus goes to the next key, then to issuing one, and each revoke is announced', async () => {
    await open('/keys', 'API keys');
    expect(await page.locator('thead th').allTextContents()).toEqual([
      'Name',
      'Key',
      'Created',
      'Last used',
      'Expires',
      'State',
      'Action',
    ]);
    await page.getByLabel('Name', { exact: true }).fill('spare');
    await page.getByLabel('Expires on (optional)').fill('2099-12-31');
    await page.getByRole('button', { name: 'Issue a new key' }).click();
    const spare = (await page.getByTestId('new-key').textContent()) ?? '';
    const spareRow = page.locator('tbody tr', { hasText: spare.slice(0, 10) });
    expect(await spareRow.locator('td[data-label="Expires"]').textContent()).toContain('2099');
    // Newest first: the spare key's row, then the key that spoke.
    await page.getByRole('button', { name: `Revoke key ${spare.slice(0, 10)}` }).click();
    await expectText(page.getByRole('status'), `Key ${spare.slice(0, 10)}… revoked`);
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe(
      `Revoke key ${apiKey.slice(0, 10)}`,
    );
    await page.getByRole('button', { name: `Revoke key ${apiKey.slice(0, 10)}` }).click();
    await expectText(page.getByRole('status'), `Key ${apiKey.slice(0, 10)}… revoked`);
    // No key left to revoke: focus goes to naming a new one.
    expect(await page.evaluate('document.activeElement?.labels?.[0]?.textContent')).toBe('Name');
    expect((await speech(apiKey, 'The dashboard issued this key.')).status).toBe(401);
  });

  it('shows the credit state and what happens at zero', async () => {
    await open('/credit', 'Credit');
    expect(await page.getByTestId('credit-state').textContent()).toBe('In credit');
    await expectText(page.locator('main'), 'refused with HTTP 402');
    await shot('credit');
  });

  it(
    'fits a phone: no sideways scrolling on any page, every control reachable by keyboard',
    async () => {
      await page.setViewportSize({ width: 360, height: 740 });
      for (const [path, title] of PAGES) {
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
    },
    TEST_MS,
  );

  it('invites a member with a code shown once, changes their role and removes them; the audit list shows who did it', async () => {
    await open('/members', 'Members');
    const invitee = `browser-invitee-${Date.now()}@example.com`;
    await page.getByLabel('Email address').fill('not an address');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await expectText(page.locator('.field-error:visible'), 'like name@example.com');
    await page.getByLabel('Email address').fill(invitee);
    await page.getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await expectText(page.getByRole('status').first(), `${invitee} invited as member`);
    const code = (await page.getByTestId('member-code').textContent()) ?? '';
    expect(code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    await shot('members-invited');
    // The code signs the new member in (another browser's session), as a member.
    const invited = await call(gw, 'POST', '/api/session', { body: { email: invitee, code } });
    expect(invited.body.role).toBe('member');

    const row = page.locator('tbody tr', { hasText: invitee });
    expect(await row.locator('td[data-label="Role"]').textContent()).toBe('member');
    await row.getByRole('button', { name: 'Make owner' }).click();
    await expectText(page.getByRole('status').first(), `${invitee} is now an owner.`);
    expect(await page.evaluate("document.activeElement?.getAttribute('aria-label')")).toBe(
      `Make member: ${invitee}`,
    );
    await page.getByRole('button', { name: `Remove ${invitee}` }).click();
    await expectText(page.getByRole('status').first(), `${invitee} removed`);
    expect(await page.locator('tbody tr', { hasText: invitee }).count()).toBe(0);
    // Nobody else can be removed (the member signed in is "you"): focus goes back to inviting.
    expect(await page.evaluate('document.activeElement?.labels?.[0]?.textContent')).toBe('Email address');

    await open('/audit', 'Audit');
    const rows = page.locator('tbody tr');
    const said = (await rows.allTextContents()).join('\n');
    for (const text of [
      `invited a member${invitee} as member`,
      `changed a member's role${invitee}: member → owner`,
      `removed a member${invitee}`,
    ]) {
      expect(said).toContain(text);
    }
    expect(said).toContain(member.email.toLowerCase());
    expect(said).toContain('issued an API key');
    await shot('audit');
  });

  it('leads an action after the session ended to the sign-in, and back to the page', async () => {
    await open('/keys', 'API keys');
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await db.query(
        'DELETE FROM dashboard_sessions WHERE member_id = (SELECT id FROM members WHERE email = $1)',
        [member.email.toLowerCase()],
      );
    } finally {
      await db.end();
    }
    await page.getByLabel('Name', { exact: true }).fill('after the session');
    await page.getByRole('button', { name: 'Issue a new key' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await expectText(page.getByRole('status'), 'Your session has ended: sign in again');
    const code = adminCli(stack.adminUrl, ['member', 'code', member.email, '--json']);
    await page.getByLabel('Email address').fill(member.email);
    await page.getByLabel('Sign-in code').fill(code.json.code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
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

/** Every control reached by Tab shows a solid ring at least 2 px wide and of at least 3:1 contrast. */
function expectRingsVisible(page: string, rings: Awaited<ReturnType<typeof focusRings>>): void {
  expect({ page, controls: rings.length > 2 }).toEqual({ page, controls: true });
  const faint = rings.filter((r) => r.style === 'none' || !(r.width >= 2) || !(r.ratio >= 3));
  expect({ page, faint }).toEqual({ page, faint: [] });
}

/** Waits for a locator's text to contain `text` (the page renders after its API answers). */
async function expectText(locator: import('playwright-core').Locator, text: string): Promise<void> {
  await eventually(
    `"${text}" shown`,
    async () => ((await locator.first().textContent()) ?? '').includes(text),
    5000,
  );
}

/** Another site's page: served from localhost (the gateway is 127.0.0.1, another site to a browser). */
async function serveOnePage(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
