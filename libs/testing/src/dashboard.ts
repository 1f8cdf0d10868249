import { type Browser, chromium } from 'playwright-core';
import { adminCli } from './router-client';

/** Debian's Chromium, which `tools/services/ensure.sh chromium` installs (Playwright's own download is blocked). */
export const CHROMIUM = '/usr/bin/chromium';

/** A new org with a dashboard member; resolves with the member's one-time sign-in code. */
export function createOrgWithMember(
  adminUrl: string,
  name: string,
): { orgId: string; email: string; code: string } {
  const org = adminCli(adminUrl, ['org', 'create', '--name', name, '--json']);
  if (org.code !== 0) throw new Error(`org create failed: ${org.out}`);
  const email = `${name}-${Date.now()}@example.com`;
  const member = adminCli(adminUrl, ['member', 'add', org.json.id, email, '--json']);
  if (member.code !== 0) throw new Error(`member add failed: ${member.out}`);
  return { orgId: org.json.id, email, code: member.json.code };
}

/** A signed-in session through the gateway: the cookie to send back and the CSRF token for changes. */
export async function signIn(
  gatewayUrl: string,
  email: string,
  code: string,
): Promise<{ cookie: string; csrf: string; setCookie: string; body: any }> {
  const res = await fetch(`${gatewayUrl}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, code }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: HTTP ${res.status} ${await res.text()}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const body = (await res.json()) as { csrf_token: string };
  return { cookie: setCookie.split(';')[0] ?? '', csrf: body.csrf_token, setCookie, body };
}

/**
 * Headless Chromium as the machines run it: no sandbox (root), no GPU, nothing fetched from outside (the
 * network is closed), and a fresh profile (Playwright gives every launch an empty user-data-dir of its own).
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
