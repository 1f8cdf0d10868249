import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { adminCli, call, createOrgWithMember, launchChromium, readE2eStack, signIn } from '@router/testing';
import { axeScan as scan, PAGES, SHOTS, WIDTHS } from './page-checks';

const stack = readE2eStack();
const gw = stack.gatewayUrl;

/**
 * Every page of the dashboard, signed out and signed in as an owner and as a member, at desktop and phone
 * width: a screenshot of each, and axe-core's accessibility scan (WCAG 2.x A and AA, and its best practices)
 * finding nothing.
 */
describe('dashboard pages: accessibility scan and screenshots (e2e)', () => {
  const org = createOrgWithMember(stack.adminUrl, 'pages');
  let browser: Browser;
  let memberEmail = '';

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
    // Something on every page: a key, a vendor key, a member, and so audit entries.
    const owner = await signIn(gw, org.email, org.code);
    const headers = { cookie: owner.cookie, 'x-csrf-token': owner.csrf };
    await call(gw, 'POST', '/api/keys', { headers, body: { name: 'pages agent' } });
    await call(gw, 'PUT', '/v1/provider-keys/vendor_a', { headers, body: { api_key: 'pages-vendor-a-key' } });
    const invited = await call(gw, 'POST', '/api/members', {
      headers,
      body: { email: `pages-member-${Date.now()}@example.com`, role: 'member' },
    });
    memberEmail = invited.body.member.email;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  /**
   * A context of its own per role and width, signed in as `email` with a code the operator prints; CSP is
   * bypassed so axe's script can be evaluated.
   */
  const signedInPage = async (
    viewport: { width: number; height: number },
    email: string | null,
  ): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport, bypassCSP: true });
    const page = await context.newPage();
    if (email) {
      const printed = adminCli(stack.adminUrl, ['member', 'code', email, '--json']);
      const session = await signIn(gw, email, printed.json.code as string);
      const [name, value] = session.cookie.split('=') as [string, string];
      await context.addCookies([{ name, value, url: gw }]);
    }
    return { context, page };
  };

  const open = async (page: Page, path: string, title: string): Promise<void> => {
    await page.goto(`${gw}/dashboard${path}`);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.locator('.loading').waitFor({ state: 'detached' });
    if (path === '/') await page.locator('figure.chart svg').waitFor();
  };

  it.each(Object.keys(WIDTHS) as Array<keyof typeof WIDTHS>)(
    'the sign-in page at %s width: no accessibility violation',
    async (width) => {
      const { context, page } = await signedInPage(WIDTHS[width], null);
      try {
        await page.goto(`${gw}/dashboard/`);
        await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
        await page.screenshot({ path: join(SHOTS, `sign-in-${width}.png`), fullPage: true });
        expect({ page: 'sign-in', violations: await scan(page) }).toEqual({
          page: 'sign-in',
          violations: [],
        });
      } finally {
        await context.close();
      }
    },
  );

  for (const role of ['owner', 'member'] as const) {
    it.each(Object.keys(WIDTHS) as Array<keyof typeof WIDTHS>)(
      `every page as ${role === 'owner' ? 'an owner' : 'a member'} at %s width: a screenshot, and no accessibility violation`,
      async (width) => {
        const { context, page } = await signedInPage(
          WIDTHS[width],
          role === 'owner' ? org.email : memberEmail,
        );
        try {
          for (const [path, title] of PAGES) {
            await open(page, path, title);
            const name = `${role}${path === '/' ? '-usage' : path.replace('/', '-')}-${width}`;
            await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
            expect({ page: name, violations: await scan(page) }).toEqual({ page: name, violations: [] });
          }
        } finally {
          await context.close();
        }
      },
      60_000,
    );
  }
});
