import type { AdminService, MembersService } from '@router/admin';
import type { ProviderKeyStore } from '@router/provider-keys';

/** What the demo org stores for a simulated vendor: the simulator takes any key (but one starting `bad`). */
export const SIMULATED_VENDOR_KEY = 'simulated';
/** The demo org's dashboard member (no mail is ever sent: the router prints the member's sign-in code). */
export const DEMO_MEMBER = 'demo@example.com';

/**
 * A first start on an empty database gets a demo org, whose key is printed this once, with a stored key for
 * every simulated vendor, so its first speech request answers with audio instead of `provider_key_missing`.
 * A vendor given a real base URL gets none: the org's own key for it is stored through
 * `PUT /v1/provider-keys/{provider}`. Undefined when the database already has an org.
 */
export async function createDemoOrgOnEmptyDatabase(
  admin: AdminService,
  vendorKeys: ProviderKeyStore,
  members: MembersService,
  simulated: readonly string[],
): Promise<string | undefined> {
  if ((await admin.listOrgs()).length > 0) return undefined;
  const org = await admin.createOrg({ name: 'demo' });
  for (const vendor of simulated) await vendorKeys.put(org.id, vendor, SIMULATED_VENDOR_KEY);
  await members.addMember(org.id, DEMO_MEMBER);
  return (await admin.issueKey(org.id)).key;
}

/**
 * A fresh one-time code for the demo member at every start, so the welcome always says how to sign in (the
 * code before it, if unused, no longer works). Undefined when the database has no demo member.
 */
export async function demoSignIn(
  members: MembersService,
): Promise<{ email: string; code: string; expiresAt: string } | undefined> {
  const issued = await members.issueCode(DEMO_MEMBER).catch(() => undefined);
  return issued && { email: issued.member.email, code: issued.code, expiresAt: issued.expires_at };
}
