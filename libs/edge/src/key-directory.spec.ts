import { issueApiKey } from '@router/auth';
import { type AuthSource, KeyDirectory, type KeyRecord, type OrgRecord } from './key-directory';

/** What node-postgres throws when the server is stopped. */
const refused = (): Error =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function fixture(outageStaleMs = 0) {
  let now = 0;
  const keys = new Map<string, KeyRecord>();
  const orgs = new Map<string, OrgRecord>();
  const reads = { keys: 0, orgs: 0 };
  const database = { down: false };
  const source: AuthSource = {
    findKey: async (hash) => {
      reads.keys += 1;
      if (database.down) throw refused();
      return keys.get(hash) ?? null;
    },
    findOrg: async (id) => {
      reads.orgs += 1;
      if (database.down) throw refused();
      return orgs.get(id) ?? null;
    },
  };
  const directory = new KeyDirectory(source, {
    ttlMs: 1000,
    maxStaleMs: 10_000,
    outageStaleMs,
    maxEntries: 3,
    now: () => now,
  });
  const issued = issueApiKey();
  keys.set(issued.keyHash, { orgId: 'org-1', revoked: false });
  orgs.set('org-1', { disabled: false, outOfCredit: false });
  return { directory, keys, orgs, reads, issued, database, advance: (ms: number) => (now += ms) };
}

describe('KeyDirectory', () => {
  it('answers repeated requests from memory', async () => {
    const f = fixture();
    for (let i = 0; i < 5; i += 1) {
      expect(await f.directory.authenticate(f.issued.key)).toEqual({
        ok: true,
        orgId: 'org-1',
        outOfCredit: false,
      });
    }
    expect(f.reads).toEqual({ keys: 1, orgs: 1 });
  });

  it('shares one read between concurrent misses', async () => {
    const f = fixture();
    await Promise.all([1, 2, 3].map(() => f.directory.authenticate(f.issued.key)));
    expect(f.reads.keys).toBe(1);
  });

  it('refuses junk and unknown keys without trusting them', async () => {
    const f = fixture();
    expect(await f.directory.authenticate('rtr_nope')).toEqual({ ok: false, reason: 'unknown-key' });
    expect(await f.directory.authenticate(undefined)).toEqual({ ok: false, reason: 'unknown-key' });
    expect(await f.directory.authenticate(issueApiKey().key)).toEqual({ ok: false, reason: 'unknown-key' });
    expect(f.reads.keys).toBe(1);
  });

  it('refuses a key from its expiry on, read from memory without waiting for a refresh', async () => {
    const f = fixture();
    const expiring = issueApiKey();
    f.keys.set(expiring.keyHash, { orgId: 'org-1', revoked: false, expiresAt: 500 });
    expect(await f.directory.authenticate(expiring.key)).toMatchObject({ ok: true });
    f.advance(499);
    expect(await f.directory.authenticate(expiring.key)).toMatchObject({ ok: true });
    f.advance(1);
    expect(await f.directory.authenticate(expiring.key)).toEqual({ ok: false, reason: 'expired' });
    expect(await f.directory.authenticateHash(expiring.keyHash)).toEqual({ ok: false, reason: 'expired' });
    expect(f.reads.keys).toBe(1);
    // A key without an expiry goes on.
    expect(await f.directory.authenticate(f.issued.key)).toMatchObject({ ok: true });
  });

  it('sees a revocation at once when told, and within the TTL when not', async () => {
    const f = fixture();
    await f.directory.authenticate(f.issued.key);
    f.keys.set(f.issued.keyHash, { orgId: 'org-1', revoked: true });
    f.directory.forgetKey(f.issued.keyHash);
    expect(await f.directory.authenticate(f.issued.key)).toEqual({ ok: false, reason: 'revoked' });

    const g = fixture();
    await g.directory.authenticate(g.issued.key);
    g.orgs.set('org-1', { disabled: true, outOfCredit: false });
    expect((await g.directory.authenticate(g.issued.key)).ok).toBe(true);
    g.advance(1500); // past the TTL: this answer is the stale one, the refresh runs behind it
    expect((await g.directory.authenticate(g.issued.key)).ok).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(await g.directory.authenticate(g.issued.key)).toEqual({ ok: false, reason: 'org-disabled' });
  });

  it('waits for a fresh read once an entry is too old to trust', async () => {
    const f = fixture();
    await f.directory.authenticate(f.issued.key);
    f.orgs.set('org-1', { disabled: false, outOfCredit: true });
    f.advance(20_000);
    expect(await f.directory.authenticate(f.issued.key)).toEqual({
      ok: true,
      orgId: 'org-1',
      outOfCredit: true,
    });
  });

  it('does not let a read that raced a change event restore the old state', async () => {
    const f = fixture();
    const first = f.directory.authenticate(f.issued.key);
    f.orgs.set('org-1', { disabled: true, outOfCredit: false });
    f.directory.forgetOrg('org-1');
    await first;
    expect(await f.directory.authenticate(f.issued.key)).toEqual({ ok: false, reason: 'org-disabled' });
  });

  it('stays bounded', async () => {
    const f = fixture();
    for (let i = 0; i < 10; i += 1) await f.directory.authenticate(issueApiKey().key);
    await f.directory.authenticate(f.issued.key);
    await f.directory.authenticate(f.issued.key);
    expect(f.reads.keys).toBe(11);
  });
});

describe('KeyDirectory and stored vendor keys', () => {
  it('refuses a mirror of a vendor the org has no stored key for, and lets it in once the org is re-read', async () => {
    const f = fixture();
    f.orgs.set('org-1', { disabled: false, outOfCredit: false, vendorKeys: ['vendor_a'] });
    expect(await f.directory.authenticate(f.issued.key, 'vendor_a')).toEqual({
      ok: true,
      orgId: 'org-1',
      outOfCredit: false,
    });
    expect(await f.directory.authenticate(f.issued.key, 'vendor_c')).toEqual({
      ok: false,
      reason: 'no-vendor-key',
    });
    // The native surface names no vendor and is not refused for it.
    expect((await f.directory.authenticate(f.issued.key)).ok).toBe(true);
    f.orgs.set('org-1', { disabled: false, outOfCredit: false, vendorKeys: ['vendor_a', 'vendor_c'] });
    expect((await f.directory.authenticate(f.issued.key, 'vendor_c')).ok).toBe(false); // still remembered
    f.directory.forgetOrg('org-1'); // what a provider_key change event does
    expect((await f.directory.authenticate(f.issued.key, 'vendor_c')).ok).toBe(true);
  });

  it('reads the org again before refusing for a vendor key, so a key stored a moment ago is seen at once', async () => {
    const f = fixture();
    f.orgs.set('org-1', { disabled: false, outOfCredit: false, vendorKeys: ['vendor_a'] });
    expect((await f.directory.authenticate(f.issued.key, 'vendor_a')).ok).toBe(true);
    // Stored at the database, its change event not yet here: the memory still says vendor_a only.
    f.orgs.set('org-1', { disabled: false, outOfCredit: false, vendorKeys: ['vendor_a', 'vendor_c'] });
    expect((await f.directory.authenticate(f.issued.key, 'vendor_c')).ok).toBe(true);
    expect(f.reads.orgs).toBe(2);
  });

  it('reads the org again for refusals at most once a second', async () => {
    const f = fixture();
    for (let i = 0; i < 5; i += 1) await f.directory.authenticate(f.issued.key, 'vendor_c');
    expect(f.reads.orgs).toBe(2); // the first load, and one re-read
    f.advance(900);
    for (let i = 0; i < 5; i += 1) await f.directory.authenticate(f.issued.key, 'vendor_c');
    expect(f.reads.orgs).toBe(2);
    f.advance(100);
    await f.directory.authenticate(f.issued.key, 'vendor_c');
    expect(f.reads.orgs).toBeGreaterThan(2);
  });

  it('refuses a disabled org as disabled before asking about vendor keys', async () => {
    const f = fixture();
    f.orgs.set('org-1', { disabled: true, outOfCredit: false });
    expect(await f.directory.authenticate(f.issued.key, 'vendor_c')).toEqual({
      ok: false,
      reason: 'org-disabled',
    });
  });

  describe('through a PostgreSQL outage', () => {
    it('answers from what it holds up to the staleness bound, then unavailable; recovers when the database is back', async () => {
      const f = fixture(60_000);
      const admitted = { ok: true, orgId: 'org-1', outOfCredit: false };
      expect(await f.directory.authenticate(f.issued.key)).toEqual(admitted);
      f.database.down = true;
      f.advance(30_000); // past maxStaleMs: a fresh read is due, and fails
      expect(await f.directory.authenticate(f.issued.key)).toEqual(admitted);
      f.advance(30_001); // past the outage bound since the last read
      await expect(f.directory.authenticate(f.issued.key)).rejects.toMatchObject({
        code: 'unavailable',
        retryable: true,
      });
      f.database.down = false;
      expect(await f.directory.authenticate(f.issued.key)).toEqual(admitted);
    });

    it('tells a key it never held as unavailable, never as unknown', async () => {
      const f = fixture(60_000);
      f.database.down = true;
      await expect(f.directory.authenticate(f.issued.key)).rejects.toMatchObject({ code: 'unavailable' });
    });

    it('does not hold on through a failure that is not an outage', async () => {
      const database: { failure?: Error } = {};
      const issued = issueApiKey();
      const source: AuthSource = {
        findKey: () =>
          database.failure
            ? Promise.reject(database.failure)
            : Promise.resolve({ orgId: 'org-1', revoked: false }),
        findOrg: () => Promise.resolve({ disabled: false, outOfCredit: false }),
      };
      let now = 0;
      const directory = new KeyDirectory(source, {
        ttlMs: 1000,
        maxStaleMs: 10_000,
        outageStaleMs: 60_000,
        maxEntries: 3,
        now: () => now,
      });
      expect(await directory.authenticate(issued.key)).toMatchObject({ ok: true });
      database.failure = new Error('column "x" does not exist');
      now = 20_000;
      await expect(directory.authenticate(issued.key)).rejects.toMatchObject({ code: 'internal' });
    });
  });
});
