import type { AdminService, MembersService } from '@router/admin';
import type { ProviderKeyStore } from '@router/provider-keys';
import { createDemoOrgOnEmptyDatabase, DEMO_MEMBER, SIMULATED_VENDOR_KEY } from './demo-org';

/** An admin with `orgs` orgs already, and a vendor-key store that records what it is given. */
function fakes(orgs: number) {
  const stored: Array<[string, string, string]> = [];
  const admin = {
    listOrgs: () => Promise.resolve(Array.from({ length: orgs }, (_, i) => ({ id: `org-${i}` }))),
    createOrg: () => Promise.resolve({ id: 'demo-org' }),
    issueKey: () => Promise.resolve({ key: 'rtr_demo' }),
  } as unknown as AdminService;
  const keys = {
    put: (orgId: string, provider: string, apiKey: string) => {
      stored.push([orgId, provider, apiKey]);
      return Promise.resolve();
    },
  } as unknown as ProviderKeyStore;
  const added: Array<[string, string]> = [];
  const members = {
    addMember: (orgId: string, email: string) => {
      added.push([orgId, email]);
      return Promise.resolve();
    },
  } as unknown as MembersService;
  return { admin, keys, stored, members, added };
}

describe('createDemoOrgOnEmptyDatabase', () => {
  it('stores a simulated key for each simulated vendor only: a vendor with a real base URL gets none', async () => {
    const { admin, keys, stored, members, added } = fakes(0);
    expect(await createDemoOrgOnEmptyDatabase(admin, keys, members, ['vendor_a', 'vendor_c'])).toBe(
      'rtr_demo',
    );
    expect(added).toEqual([['demo-org', DEMO_MEMBER]]);
    expect(stored).toEqual([
      ['demo-org', 'vendor_a', SIMULATED_VENDOR_KEY],
      ['demo-org', 'vendor_c', SIMULATED_VENDOR_KEY],
    ]);
  });

  it('leaves a database that has an org alone', async () => {
    const { admin, keys, stored, members, added } = fakes(1);
    expect(await createDemoOrgOnEmptyDatabase(admin, keys, members, ['vendor_a'])).toBeUndefined();
    expect(stored).toEqual([]);
    expect(added).toEqual([]);
  });
});
