import { randomBytes } from 'node:crypto';
import { createDatabase, type Database } from '@router/db';
import { createScratchDatabase, type ScratchDatabase } from '@router/testing';
import { TakeClaims } from './take-claims';

/** The claims against both databases the router runs on: PostgreSQL (distributed) and PGlite (standalone). */
describe.each(['postgres', 'pglite'] as const)('TakeClaims (%s)', (kind) => {
  let scratch: ScratchDatabase | undefined;
  let db: Database;
  let orgId: string;

  beforeAll(async () => {
    db =
      kind === 'postgres'
        ? await createDatabase({ url: (scratch = await createScratchDatabase('claims')).url })
        : await createDatabase({ pgliteDataDir: 'memory://' });
    await db.migrate();
    orgId = (await db.prisma.org.create({ data: { name: 'claims' } })).id;
  }, 60_000);

  afterAll(async () => {
    await db.close();
    await scratch?.drop();
  });

  const newKey = (): string => randomBytes(32).toString('hex');
  const worker = (id: string, staleAfterMs = 60_000): TakeClaims => new TakeClaims(db.sql, id, staleAfterMs);

  it('gives a free key to the first worker; the next is told who holds it, the holder again that it is its own', async () => {
    const key = newKey();
    await expect(worker('w1').claim(orgId, key)).resolves.toEqual({ kind: 'mine' });
    await expect(worker('w2').claim(orgId, key)).resolves.toEqual({ kind: 'held', workerId: 'w1' });
    await expect(worker('w1').claim(orgId, key)).resolves.toEqual({ kind: 'mine' });
  });

  it('lets exactly one of many workers claiming at once make the take', async () => {
    const key = newKey();
    const claims = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((id) => worker(`w-${id}`).claim(orgId, key)),
    );
    expect(claims.filter((c) => c.kind === 'mine')).toHaveLength(1);
    const holder = ['a', 'b', 'c', 'd', 'e'][claims.findIndex((c) => c.kind === 'mine')];
    for (const c of claims) if (c.kind === 'held') expect(c.workerId).toBe(`w-${holder}`);
  });

  it('claims many keys asked at once in batches, one answer per key however often it was asked', async () => {
    const keys = Array.from({ length: 40 }, newKey);
    const w1 = worker('w1');
    const w2 = worker('w2');
    // Two workers' batches over the same keys in opposite orders, each key asked twice by one of them.
    const [first, second, again] = await Promise.all([
      Promise.all(keys.map((key) => w1.claim(orgId, key))),
      Promise.all([...keys].reverse().map((key) => w2.claim(orgId, key))),
      Promise.all(keys.map((key) => w2.claim(orgId, key))),
    ]);
    second.reverse();
    keys.forEach((_, i) => {
      const pair = [first[i], second[i]];
      expect(pair.filter((c) => c.kind === 'mine')).toHaveLength(1);
      const holder = first[i].kind === 'mine' ? 'w1' : 'w2';
      for (const c of pair) if (c.kind === 'held') expect(c.workerId).toBe(holder);
      expect(again[i]).toEqual(second[i]);
    });
  });

  it('answers with the committed take once the key has one, whoever holds the claim', async () => {
    const key = newKey();
    await worker('w1').claim(orgId, key);
    await db.prisma.cacheEntry.create({
      data: {
        orgId,
        cacheKey: key,
        provider: 'vendor_a',
        objectName: 'o/k/t.audio',
        contentType: 'audio/pcm',
        byteSize: 7,
      },
    });
    await expect(worker('w2').claim(orgId, key)).resolves.toEqual({
      kind: 'committed',
      take: { objectName: 'o/k/t.audio', contentType: 'audio/pcm', byteSize: 7, hasTimings: false },
    });
  });

  it('frees a released claim, hands one over from a gone holder once, and lets a stale one be taken', async () => {
    const released = newKey();
    await worker('w1').claim(orgId, released);
    await worker('w1').release(orgId, released);
    await expect(worker('w2').claim(orgId, released)).resolves.toEqual({ kind: 'mine' });

    const orphaned = newKey();
    await worker('w1').claim(orgId, orphaned);
    await expect(worker('w2').takeOver(orgId, orphaned, 'w1')).resolves.toBe(true);
    await expect(worker('w3').takeOver(orgId, orphaned, 'w1')).resolves.toBe(false);
    await expect(worker('w3').claim(orgId, orphaned)).resolves.toEqual({ kind: 'held', workerId: 'w2' });

    const stale = newKey();
    await worker('w1').claim(orgId, stale);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await expect(worker('w2', 50).claim(orgId, stale)).resolves.toEqual({ kind: 'mine' });
  });
});
