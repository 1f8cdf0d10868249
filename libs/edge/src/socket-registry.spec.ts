import pino from 'pino';
import { issueApiKey } from '@router/auth';
import type { MirrorRevocationKind } from '@router/vendors-core';
import { KeyDirectory, type KeyRecord, type OrgRecord } from './key-directory';
import { type OpenSocket, SocketRegistry } from './socket-registry';

function fixture() {
  let now = 0;
  let failing = false;
  const keys = new Map<string, KeyRecord>();
  const orgs = new Map<string, OrgRecord>();
  const directory = new KeyDirectory(
    {
      findKey: async (hash) => {
        if (failing) throw new Error('database down');
        return keys.get(hash) ?? null;
      },
      findOrg: async (id) => orgs.get(id) ?? null,
    },
    { ttlMs: 1000, maxStaleMs: 10_000, outageStaleMs: 0, maxEntries: 100, now: () => now },
  );
  const registry = new SocketRegistry(directory, pino({ level: 'silent' }));
  const revoked: Array<[string, MirrorRevocationKind]> = [];
  const [a1, a2, b1] = [issueApiKey(), issueApiKey(), issueApiKey()];
  keys.set(a1.keyHash, { orgId: 'org-a', revoked: false });
  keys.set(a2.keyHash, { orgId: 'org-a', revoked: false });
  keys.set(b1.keyHash, { orgId: 'org-b', revoked: false });
  orgs.set('org-a', { disabled: false, outOfCredit: false, vendorKeys: ['vendor_c'] });
  orgs.set('org-b', { disabled: false, outOfCredit: false, vendorKeys: ['vendor_c'] });
  const open = (name: string, keyHash: string, orgId: string): OpenSocket => {
    const socket: OpenSocket = {
      keyHash,
      orgId,
      surface: 'native',
      revoke: (kind) => revoked.push([name, kind]),
    };
    registry.add(socket);
    return socket;
  };
  return {
    keys,
    orgs,
    directory,
    registry,
    revoked,
    keysOf: { a1, a2, b1 },
    open,
    advance: (ms: number) => (now += ms),
    fail: (on: boolean) => (failing = on),
  };
}

describe('SocketRegistry', () => {
  it("closes the sockets of a revoked key as invalid-key, and no other key's", async () => {
    const f = fixture();
    f.open('a1-first', f.keysOf.a1.keyHash, 'org-a');
    f.open('a1-second', f.keysOf.a1.keyHash, 'org-a');
    f.open('a2', f.keysOf.a2.keyHash, 'org-a');
    await f.registry.recheck();
    expect(f.revoked).toEqual([]);
    f.keys.set(f.keysOf.a1.keyHash, { orgId: 'org-a', revoked: true });
    f.directory.forgetKey(f.keysOf.a1.keyHash);
    await f.registry.recheck({ keyHash: f.keysOf.a1.keyHash });
    expect(f.revoked).toEqual([
      ['a1-first', 'invalid-key'],
      ['a1-second', 'invalid-key'],
    ]);
    expect(f.registry.size).toBe(1);
  });

  it('closes the sockets of a key at the first sweep after it expires, as invalid-key', async () => {
    const f = fixture();
    f.keys.set(f.keysOf.b1.keyHash, { orgId: 'org-b', revoked: false, expiresAt: 100 });
    f.open('b1', f.keysOf.b1.keyHash, 'org-b');
    await f.registry.recheck();
    expect(f.revoked).toEqual([]);
    f.advance(100);
    await f.registry.recheck();
    expect(f.revoked).toEqual([['b1', 'invalid-key']]);
  });

  it('closes the sockets of a deleted key as invalid-key', async () => {
    const f = fixture();
    f.open('b1', f.keysOf.b1.keyHash, 'org-b');
    f.keys.delete(f.keysOf.b1.keyHash);
    f.directory.forgetKey(f.keysOf.b1.keyHash);
    await f.registry.recheck();
    expect(f.revoked).toEqual([['b1', 'invalid-key']]);
  });

  it("closes every socket of a disabled org as org-disabled, whatever its key, and no other org's", async () => {
    const f = fixture();
    f.open('a1', f.keysOf.a1.keyHash, 'org-a');
    f.open('a2', f.keysOf.a2.keyHash, 'org-a');
    f.open('b1', f.keysOf.b1.keyHash, 'org-b');
    f.orgs.set('org-a', { disabled: true, outOfCredit: false, vendorKeys: ['vendor_c'] });
    f.directory.forgetOrg('org-a');
    await f.registry.recheck({ orgId: 'org-a' });
    expect(f.revoked).toEqual([
      ['a1', 'org-disabled'],
      ['a2', 'org-disabled'],
    ]);
  });

  it('keeps the sockets of an org out of credit, and of one whose vendor key was deleted', async () => {
    const f = fixture();
    f.open('a1', f.keysOf.a1.keyHash, 'org-a');
    f.orgs.set('org-a', { disabled: false, outOfCredit: true, vendorKeys: [] });
    f.directory.forgetOrg('org-a');
    await f.registry.recheck();
    expect(f.revoked).toEqual([]);
    expect(f.registry.size).toBe(1);
  });

  it('re-checks only the key or org a change names', async () => {
    const f = fixture();
    f.open('a1', f.keysOf.a1.keyHash, 'org-a');
    f.open('b1', f.keysOf.b1.keyHash, 'org-b');
    f.keys.set(f.keysOf.b1.keyHash, { orgId: 'org-b', revoked: true });
    f.directory.forgetKey(f.keysOf.b1.keyHash);
    await f.registry.recheck({ keyHash: f.keysOf.a1.keyHash });
    await f.registry.recheck({ orgId: 'org-a' });
    expect(f.revoked).toEqual([]);
    await f.registry.recheck({ orgId: 'org-b' });
    expect(f.revoked).toEqual([['b1', 'invalid-key']]);
  });

  it('closes a socket once, and never one already closed by its client', async () => {
    const f = fixture();
    f.open('a1', f.keysOf.a1.keyHash, 'org-a');
    const closed = f.registry.add({
      keyHash: f.keysOf.a1.keyHash,
      orgId: 'org-a',
      surface: 'native',
      revoke: () => f.revoked.push(['gone', 'invalid-key']),
    });
    closed();
    f.keys.set(f.keysOf.a1.keyHash, { orgId: 'org-a', revoked: true });
    f.directory.forgetKey(f.keysOf.a1.keyHash);
    await Promise.all([f.registry.recheck(), f.registry.recheck()]);
    await f.registry.recheck();
    expect(f.revoked).toEqual([['a1', 'invalid-key']]);
  });

  it('closes nothing while the directory cannot answer, and closes once it can', async () => {
    const f = fixture();
    f.open('a1', f.keysOf.a1.keyHash, 'org-a');
    f.keys.set(f.keysOf.a1.keyHash, { orgId: 'org-a', revoked: true });
    f.directory.forgetKey(f.keysOf.a1.keyHash);
    f.fail(true);
    await f.registry.recheck();
    expect(f.revoked).toEqual([]);
    f.fail(false);
    await f.registry.recheck();
    expect(f.revoked).toEqual([['a1', 'invalid-key']]);
  });

  it('sees a revocation whose event was lost once the entry ages past its TTL', async () => {
    const f = fixture();
    f.open('a1', f.keysOf.a1.keyHash, 'org-a');
    await f.registry.recheck();
    f.keys.set(f.keysOf.a1.keyHash, { orgId: 'org-a', revoked: true }); // no forgetKey: the event was lost
    await f.registry.recheck();
    expect(f.revoked).toEqual([]);
    f.advance(1500);
    await f.registry.recheck(); // answered from the aged entry while it is read again
    await f.registry.recheck();
    expect(f.revoked).toEqual([['a1', 'invalid-key']]);
  });

  it('sweeps every open socket until stopped', async () => {
    const f = fixture();
    const swept = new Promise<MirrorRevocationKind>((resolve) =>
      f.registry.add({ keyHash: f.keysOf.b1.keyHash, orgId: 'org-b', surface: 'native', revoke: resolve }),
    );
    f.orgs.set('org-b', { disabled: true, outOfCredit: false });
    f.directory.forgetOrg('org-b');
    f.registry.startSweeps(5);
    try {
      expect(await swept).toBe('org-disabled');
    } finally {
      f.registry.stop();
    }
  });
});
