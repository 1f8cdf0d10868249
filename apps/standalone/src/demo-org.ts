import type { AdminService } from '@router/admin';
import type { ProviderKeyStore } from '@router/provider-keys';

/** What the demo org stores for a simulated vendor: the simulator takes any key (but one starting `bad`). */
export const SIMULATED_VENDOR_KEY = 'simulated';

/**
 * A first start on an empty database gets a demo org, whose key is printed this once, with a stored key for
 * every simulated vendor, so its first speech request answers with audio instead of `provider_key_missing`.
 * A vendor given a real base URL gets none: the org's own key for it is stored through
 * `PUT /v1/provider-keys/{provider}`. Undefined when the database already has an org.
 */
export async function createDemoOrgOnEmptyDatabase(
  admin: AdminService,
  vendorKeys: ProviderKeyStore,
  simulated: readonly string[],
): Promise<string | undefined> {
  if ((await admin.listOrgs()).length > 0) return undefined;
  const org = await admin.createOrg({ name: 'demo' });
  for (const vendor of simulated) await vendorKeys.put(org.id, vendor, SIMULATED_VENDOR_KEY);
  return (await admin.issueKey(org.id)).key;
}
