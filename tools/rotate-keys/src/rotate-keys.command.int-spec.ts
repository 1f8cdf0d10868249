import { randomBytes } from 'node:crypto';
import { createDatabase, type Database } from '@router/db';
import { KeyRing, ProviderKeyStore, rotateProviderKeys } from '@router/provider-keys';
import { createScratchDatabase, type ScratchDatabase } from '@router/testing';
import { runRotateKeys } from './rotate-keys.command';

const masterKey = (): string => randomBytes(32).toString('base64');

function capture() {
  const lines: string[] = [];
  return { lines, out: { log: (l: string) => lines.push(l), error: (l: string) => lines.push(l) } };
}

/**
 * The master-key rotation against a real PostgreSQL: every stored vendor key re-sealed under the new version,
 * each readable throughout (by a process holding both versions) and, once it ended, by the new version alone.
 */
describe('rotate-keys (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: Database;
  let url: string;
  const v1 = masterKey();
  const v2 = masterKey();
  const oldRing = KeyRing.parse(`1:${v1}`);
  const bothRings = KeyRing.parse(`1:${v1},2:${v2}`);
  const newRing = KeyRing.parse(`2:${v2}`);
  const stored: Array<{ orgId: string; provider: string; key: string }> = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase('rotate_keys');
    url = scratch.url;
    db = await createDatabase({ url });
    await db.migrate();
    const old = new ProviderKeyStore(db.prisma, oldRing);
    for (const name of ['a', 'b', 'c']) {
      const orgId = (await db.prisma.org.create({ data: { name } })).id;
      for (const provider of ['vendor_a', 'vendor_c', 'vendor_h']) {
        const key = `vk-${name}-${provider}-${randomBytes(8).toString('hex')}`;
        await old.put(orgId, provider, key);
        stored.push({ orgId, provider, key });
      }
    }
  }, 60_000);

  afterAll(async () => {
    await db.close();
    await scratch.drop();
  });

  const versions = async (): Promise<number[]> => [
    ...new Set(
      (await db.prisma.providerKey.findMany({ select: { keyVersion: true } })).map((r) => r.keyVersion),
    ),
  ];

  it('refuses a ring without the version the keys are under, naming it, and changes nothing', async () => {
    const { lines, out } = capture();
    await expect(
      runRotateKeys({ DATABASE_URL: url, PROVIDER_KEY_MASTER_KEYS: `2:${v2}` }, out),
    ).resolves.toBe(1);
    expect(lines).toEqual([expect.stringContaining('Master key version 1 is not configured')]);
    expect(await versions()).toEqual([1]);
  });

  it('keeps every key readable while it runs, page by page, by a process holding both versions', async () => {
    const reader = new ProviderKeyStore(db.prisma, bothRings);
    const seen: Array<{ rotated: number; versions: number[]; readable: boolean }> = [];
    // Two keys re-sealed a page: between pages, keys under both versions are in the table, and all are read.
    const report = await rotateProviderKeys(db.prisma, bothRings, {
      pageSize: 2,
      afterPage: async (rotated) => {
        const opened = await Promise.all(stored.map((s) => reader.open(s.orgId, s.provider)));
        seen.push({
          rotated,
          versions: (await versions()).sort(),
          readable: opened.every((key, i) => key === stored[i]?.key),
        });
      },
    });
    expect(report).toEqual({ activeVersion: 2, rotated: 9, retiredVersions: [1], remaining: 0 });
    expect(seen.map((s) => s.rotated)).toEqual([2, 4, 6, 8, 9]);
    expect(seen.slice(0, -1).every((s) => s.versions.join() === '1,2')).toBe(true);
    expect(seen.every((s) => s.readable)).toBe(true);
  });

  it('re-seals every key under the new version; the old one is then needed by nothing', async () => {
    // Keys written under the old version again (as a process without the new key would), then the command.
    const old = new ProviderKeyStore(db.prisma, oldRing);
    for (const { orgId, provider, key } of stored.slice(0, 4)) await old.put(orgId, provider, key);
    expect((await versions()).sort()).toEqual([1, 2]);

    const { lines, out } = capture();
    const env = { DATABASE_URL: url, PROVIDER_KEY_MASTER_KEYS: `1:${v1},2:${v2}` };
    await expect(runRotateKeys(env, out)).resolves.toBe(0);
    expect(lines).toEqual([
      expect.stringMatching(
        /re-sealed 4 vendor keys under master key version 2; none is left .*found under: 1\)/,
      ),
    ]);
    expect(await versions()).toEqual([2]);
    const reader = new ProviderKeyStore(db.prisma, newRing);
    for (const { orgId, provider, key } of stored) expect(await reader.open(orgId, provider)).toBe(key);
    // Nothing of a key, vendor or master, is ever printed.
    for (const secret of [v1, v2, ...stored.map((s) => s.key)])
      expect(lines.join('\n')).not.toContain(secret);

    const again = capture();
    await expect(runRotateKeys(env, again.out)).resolves.toBe(0);
    expect(again.lines).toEqual([expect.stringContaining('re-sealed 0 vendor keys')]);
  });

  it('names its settings when they are missing or wrong', async () => {
    for (const [env, names] of [
      [{ PROVIDER_KEY_MASTER_KEYS: `1:${v1}` }, 'DATABASE_URL'],
      [{ DATABASE_URL: url }, 'PROVIDER_KEY_MASTER_KEYS is not set'],
      [{ DATABASE_URL: url, PROVIDER_KEY_MASTER_KEYS: '1:short' }, 'PROVIDER_KEY_MASTER_KEYS version 1'],
    ] as const) {
      const { lines, out } = capture();
      await expect(runRotateKeys(env, out)).resolves.toBe(1);
      expect(lines).toEqual([expect.stringContaining(names)]);
    }
  });
});
