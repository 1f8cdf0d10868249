import { randomBytes } from 'node:crypto';
import { KEY_SHARDS, keyShard, shardOwner } from '@router/contracts';
import { createDatabase, type Database, type Sql } from '@router/db';
import { createScratchDatabase, type ScratchDatabase } from '@router/testing';
import { ShardLeases } from './shard-leases';
import { TakeClaims } from './take-claims';

/** Leases on the key shards against both databases the router runs on: PostgreSQL and PGlite. */
describe.each(['postgres', 'pglite'] as const)('ShardLeases (%s)', (kind) => {
  let scratch: ScratchDatabase | undefined;
  let db: Database;
  let orgId: string;
  const started: ShardLeases[] = [];

  beforeAll(async () => {
    db =
      kind === 'postgres'
        ? await createDatabase({ url: (scratch = await createScratchDatabase('leases')).url })
        : await createDatabase({ pgliteDataDir: 'memory://' });
    await db.migrate();
    orgId = (await db.prisma.org.create({ data: { name: 'leases' } })).id;
  }, 60_000);

  afterEach(async () => {
    // Every test starts with every shard free and no worker alive.
    for (const leases of started.splice(0)) await leases.stop();
    await db.sql.query('DELETE FROM synthesis_workers');
    await db.sql.query('DELETE FROM take_leases');
  });

  afterAll(async () => {
    await db.close();
    await scratch?.drop();
  });

  /** Counts the statements a worker sends, to tell a claim answered from memory from one asked of the database. */
  function counted(): { sql: Sql; count: () => number } {
    let n = 0;
    return {
      sql: {
        query: (text, params) => {
          n++;
          return db.sql.query(text, params);
        },
      },
      count: () => n,
    };
  }

  function worker(
    id: string,
    clock?: () => number,
  ): { leases: ShardLeases; claims: TakeClaims; count: () => number } {
    const { sql, count } = counted();
    const leases = new ShardLeases(
      sql,
      id,
      { leaseMs: 60_000, staleAfterMs: 60_000, group: 'g' },
      undefined,
      clock,
    );
    started.push(leases);
    return { leases, claims: new TakeClaims(sql, id, 60_000, 'g', leases), count };
  }

  const newKey = (): string => randomBytes(32).toString('hex');
  /** A key of a given shard. */
  const keyIn = (shard: number): string =>
    shard.toString(16).padStart(2, '0') + randomBytes(31).toString('hex');
  const lessees = async (): Promise<Map<number, string | null>> =>
    new Map(
      (
        await db.sql.query<{ shard: number; workerId: string | null }>(
          `SELECT shard, worker_id AS "workerId" FROM take_leases WHERE lease_group = 'g'`,
        )
      ).map((r) => [r.shard, r.workerId]),
    );

  it('a worker alone leases every shard and claims their keys without a round trip; another worker is sent to it', async () => {
    const w1 = worker('w1');
    await w1.leases.beat();
    expect([...(await lessees()).values()]).toEqual(Array.from({ length: KEY_SHARDS }, () => 'w1'));
    expect(w1.leases.held).toBe(KEY_SHARDS);
    const key = newKey();
    const before = w1.count();
    await expect(w1.claims.claim(orgId, key)).resolves.toEqual({ kind: 'mine' });
    expect(w1.count()).toBe(before);
    // A worker that leases nothing asks the database, which names the lessee and keeps no claim of its own.
    const w2 = new TakeClaims(db.sql, 'w2', 60_000, 'g');
    await expect(w2.claim(orgId, key)).resolves.toEqual({ kind: 'held', workerId: 'w1' });
    expect(await db.sql.query('SELECT 1 FROM take_claims WHERE cache_key = $1', [key])).toEqual([]);
  });

  it('two workers share the shards as requesters send them: each leases exactly those it wins', async () => {
    const w1 = worker('w1');
    const w2 = worker('w2');
    await w1.leases.beat(); // alone: every shard
    await w2.leases.beat(); // sees w1; its shards are w1's until w1 lets them go
    await w1.leases.beat(); // sees w2: gives up w2's
    await w2.leases.beat(); // takes them
    const held = await lessees();
    for (let shard = 0; shard < KEY_SHARDS; shard++) {
      expect(held.get(shard)).toBe(shardOwner(shard, ['w1', 'w2']));
    }
    const w2Shard = [...held].find(([, id]) => id === 'w2')?.[0] ?? -1;
    // What each reports as held (synthesis_leased_shards) is its share, and together every shard.
    expect(w2.leases.held).toBe([...held.values()].filter((id) => id === 'w2').length);
    expect(w1.leases.held + w2.leases.held).toBe(KEY_SHARDS);
    expect(w2.leases.holds(w2Shard)).toBe(true);
    expect(w1.leases.holds(w2Shard)).toBe(false);
    // The shard's keys are claimed by its lessee from memory, and the other worker is sent to it.
    const key = keyIn(w2Shard);
    const before = w2.count();
    await expect(w2.claims.claim(orgId, key)).resolves.toEqual({ kind: 'mine' });
    expect(w2.count()).toBe(before);
    await expect(w1.claims.claim(orgId, key)).resolves.toEqual({ kind: 'held', workerId: 'w2' });
  });

  it('keeps a shard it no longer wins until its claims there are over; meanwhile its keys are claimed in the database', async () => {
    const w1 = worker('w1');
    await w1.leases.beat();
    const w2Shard = Array.from({ length: KEY_SHARDS }, (_, s) => s).find(
      (s) => shardOwner(s, ['w1', 'w2']) === 'w2',
    ) as number;
    const busy = keyIn(w2Shard);
    await expect(w1.claims.claim(orgId, busy)).resolves.toEqual({ kind: 'mine' });
    const w2 = worker('w2');
    await w2.leases.beat();
    await w1.leases.beat();
    expect((await lessees()).get(w2Shard)).toBe('w1');
    // A new key of the shard now takes a claim row, which the next lessee will find.
    const other = keyIn(w2Shard);
    await expect(w1.claims.claim(orgId, other)).resolves.toEqual({ kind: 'mine' });
    expect(await db.sql.query('SELECT worker_id FROM take_claims WHERE cache_key = $1', [other])).toEqual([
      { worker_id: 'w1' },
    ]);
    await w1.claims.release(orgId, busy);
    await w1.leases.beat();
    await w2.leases.beat();
    expect((await lessees()).get(w2Shard)).toBe('w2');
    // w2 found w1's claim when it took the lease: that key is w1's, asked of the database.
    await expect(w2.claims.claim(orgId, other)).resolves.toEqual({ kind: 'held', workerId: 'w1' });
    await expect(w2.claims.claim(orgId, keyIn(w2Shard))).resolves.toEqual({ kind: 'mine' });
  });

  it('a lease taken while other workers claim its keys finds every claim they made before it', async () => {
    const keys = Array.from({ length: 40 }, () => keyIn(7));
    const others = ['a', 'b', 'c', 'd'].map((id) => new TakeClaims(db.sql, `w-${id}`, 60_000, 'g'));
    const w1 = worker('w1');
    const [claims] = await Promise.all([
      Promise.all(keys.map((key, i) => others[i % 4].claim(orgId, key))),
      w1.leases.beat(),
    ]);
    expect(w1.leases.holds(7)).toBe(true);
    for (const [i, key] of keys.entries()) {
      // Claimed before the lease: that worker's, and w1 is sent to it; after: the lessee's, and w1 makes it.
      const expected =
        claims[i].kind === 'mine' ? { kind: 'held', workerId: `w-${'abcd'[i % 4]}` } : { kind: 'mine' };
      if (claims[i].kind !== 'mine') expect(claims[i]).toEqual({ kind: 'held', workerId: 'w1' });
      await expect(w1.claims.claim(orgId, key)).resolves.toEqual(expected);
    }
  });

  it('answers a key this worker committed as committed, from memory, and frees a released one', async () => {
    const w1 = worker('w1');
    await w1.leases.beat();
    const committed = newKey();
    await w1.claims.claim(orgId, committed);
    const take = { objectName: 'o/k/t.audio', contentType: 'audio/pcm', byteSize: 7, hasTimings: false };
    w1.claims.committed(orgId, committed, take);
    const before = w1.count();
    await expect(w1.claims.claim(orgId, committed)).resolves.toEqual({ kind: 'committed', take });
    const released = newKey();
    await w1.claims.claim(orgId, released);
    await w1.claims.release(orgId, released);
    await expect(w1.claims.claim(orgId, released)).resolves.toEqual({ kind: 'mine' });
    expect(w1.count()).toBe(before);
  });

  it("takes a gone lessee's shard over with the key, once; the gone worker's next beat finds it lost", async () => {
    const w1 = worker('w1');
    await w1.leases.beat();
    const key = newKey();
    await w1.claims.claim(orgId, key);
    const w2 = worker('w2');
    const w3 = worker('w3');
    await expect(w2.claims.takeOver(orgId, key, 'w1')).resolves.toBe(true);
    await expect(w3.claims.takeOver(orgId, key, 'w1')).resolves.toBe(false);
    expect((await lessees()).get(keyShard(key))).toBe('w2');
    const before = w2.count();
    await expect(w2.claims.claim(orgId, keyIn(keyShard(key)))).resolves.toEqual({ kind: 'mine' });
    expect(w2.count()).toBe(before);
    await w1.leases.beat();
    expect(w1.leases.holds(keyShard(key))).toBe(false);
  });

  it('trusts a lease for half its length after the beat that renewed it', async () => {
    let now = 0;
    const w1 = worker('w1', () => now);
    await w1.leases.beat();
    const shard = keyShard(newKey());
    now = 29_999;
    expect(w1.leases.holds(shard)).toBe(true);
    now = 30_000;
    expect(w1.leases.holds(shard)).toBe(false);
    expect(w1.leases.held).toBe(0);
    // Its own lease, untrusted, is no obstacle in the database: the claim takes a row.
    await expect(w1.claims.claim(orgId, keyIn(shard))).resolves.toEqual({ kind: 'mine' });
  });

  it("leaves another deployment's workers alone: their claims ignore this group's leases", async () => {
    const w1 = worker('w1');
    await w1.leases.beat();
    const key = newKey();
    await expect(new TakeClaims(db.sql, 'x1', 60_000, 'h').claim(orgId, key)).resolves.toEqual({
      kind: 'mine',
    });
  });

  it('frees every lease when stopped', async () => {
    const w1 = worker('w1');
    await w1.leases.beat();
    await w1.leases.stop();
    expect(new Set((await lessees()).values())).toEqual(new Set([null]));
    expect(await db.sql.query('SELECT 1 FROM synthesis_workers')).toEqual([]);
  });
});
