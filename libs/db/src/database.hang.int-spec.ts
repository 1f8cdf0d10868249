import { isStoreUnreachable } from '@router/contracts';
import pg from 'pg';
import { createDatabase, type Database } from './database';
import { startFreezingProxy, type FreezingProxy } from './test/freezing-proxy';
import { createScratchDatabase } from './test/scratch-postgres';

/**
 * A PostgreSQL that hangs fails the query instead of holding it: the pool's connect and query timeouts (short
 * here, through the options the services fill from configuration) bound every wait, and the failure is one
 * the outage fallbacks recognise (`isStoreUnreachable`), so what the processes hold is served, as when the
 * server refuses connections. Nothing here asserts a time: a wait without a bound would end the test on
 * Jest's own timeout instead. Once a query has found the server out of reach, the pool's breaker refuses new
 * queries at once (they never reach the server) until its probe, every `reachRetryMs`, gets an answer.
 */
const TIMEOUTS = { connectTimeoutMs: 300, queryTimeoutMs: 300 };
/** Longer than any test here: once open, the breaker stays open for the test (one probe, at once). */
const NO_PROBE = { ...TIMEOUTS, reachRetryMs: 600_000 };

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The code of the failure, or its message where it has none. */
function codeOf(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' ? code : String(message);
}

/** The failure a promise ends in (the test fails if it resolves). */
async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('the query was answered');
}

describe('createDatabase against a PostgreSQL that hangs', () => {
  const opened: Database[] = [];
  const proxies: FreezingProxy[] = [];
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;

  afterAll(async () => {
    for (const db of opened) await db.close().catch(() => undefined);
    for (const proxy of proxies) await proxy.close();
    await scratch?.drop();
  });

  async function open(url: string, timeouts: typeof TIMEOUTS & { reachRetryMs?: number } = TIMEOUTS) {
    const db = await createDatabase({ url, timeouts, poolSize: 2 });
    opened.push(db);
    return db;
  }

  it('fails, as unreachable, a query to a server that accepts connections and never answers', async () => {
    const silent = await startFreezingProxy();
    proxies.push(silent);
    const db = await open(silent.url);
    const viaPrisma = await failureOf(db.prisma.org.findFirst());
    expect(isStoreUnreachable(viaPrisma)).toBe(true);
    const viaSql = await failureOf(db.sql.query('SELECT 1'));
    expect(isStoreUnreachable(viaSql)).toBe(true);
  });

  it('refuses, at once and without reaching the server, every query after one found it out of reach', async () => {
    const silent = await startFreezingProxy();
    proxies.push(silent);
    const db = await open(silent.url, NO_PROBE);
    expect(isStoreUnreachable(await failureOf(db.sql.query('SELECT 1')))).toBe(true);
    const reached = silent.connections();
    const refused = await Promise.all([
      failureOf(db.prisma.org.findFirst()),
      failureOf(db.prisma.$transaction([db.prisma.org.count()])),
      ...Array.from({ length: 5 }, () => failureOf(db.sql.query('SELECT 1'))),
    ]);
    expect(refused.map(codeOf)).toEqual(refused.map(() => 'DATABASE_OUT_OF_REACH'));
    expect(refused.every((error) => isStoreUnreachable(error))).toBe(true);
    // None of them opened a connection (without the breaker the pool's two would both be opened); the breaker's
    // own first probe may have.
    expect(silent.connections()).toBeLessThanOrEqual(reached + 1);
  });

  describe('on a real server', () => {
    let db: Database;
    let proxy: FreezingProxy;

    beforeAll(async () => {
      scratch = await createScratchDatabase();
      const migrator = await createDatabase({ url: scratch.url });
      await migrator.migrate();
      await migrator.close();
      proxy = await startFreezingProxy(scratch.url);
      proxies.push(proxy);
      db = await open(proxy.url);
    });

    it('fails, as unreachable, a statement that does not finish (a lock never released)', async () => {
      expect(await db.prisma.org.count()).toBe(0);
      const holder = new pg.Client({ connectionString: scratch?.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('LOCK TABLE orgs IN ACCESS EXCLUSIVE MODE');
        const viaPrisma = await failureOf(db.prisma.org.findFirst());
        expect(isStoreUnreachable(viaPrisma)).toBe(true);
        const viaSql = await failureOf(db.sql.query('SELECT count(*) FROM orgs'));
        expect(isStoreUnreachable(viaSql)).toBe(true);
      } finally {
        await holder.query('ROLLBACK');
        await holder.end();
      }
      // The server cancelled the statements; their connections serve the next query.
      expect(await db.prisma.org.count()).toBe(0);
    });

    it('fails, as unreachable, a query to a server that stopped answering, and recovers once it answers', async () => {
      expect(await db.prisma.org.count()).toBe(0);
      proxy.freeze();
      try {
        const viaPrisma = await failureOf(db.prisma.org.findFirst());
        expect(isStoreUnreachable(viaPrisma)).toBe(true);
        const viaSql = await failureOf(db.sql.query('SELECT 1'));
        expect(isStoreUnreachable(viaSql)).toBe(true);
        // More queries than the pool has connections: none waits behind one that never ends.
        const many = await Promise.all(Array.from({ length: 5 }, () => failureOf(db.prisma.org.count())));
        expect(many.every((error) => isStoreUnreachable(error))).toBe(true);
        // A transaction holds its connection itself (not through the pool's query): it is given up too.
        const inTransaction = await failureOf(db.prisma.$transaction([db.prisma.org.count()]));
        expect(isStoreUnreachable(inTransaction)).toBe(true);
      } finally {
        // The connections open during the hang never answer again (a link lost without a reset).
        proxy.thaw({ lostConnections: true });
      }
      // The connections that timed out were closed, not kept: once the breaker's probe is answered, the same
      // pool answers again, no restart.
      await answersAgain(db);
      expect(await db.prisma.org.count()).toBe(0);
      expect(await db.sql.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    });

    it('probes a server out of reach in the background, refusing every query until it answers', async () => {
      const probing = await open(proxy.url, { ...TIMEOUTS, reachRetryMs: 50 });
      expect(await probing.sql.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      proxy.freeze();
      try {
        expect(isStoreUnreachable(await failureOf(probing.sql.query('SELECT 1')))).toBe(true);
        const reached = proxy.connections();
        // The probes reach the server (each on a new connection: one that timed out is closed, not reused).
        for (let waited = 0; proxy.connections() < reached + 2 && waited < 100; waited++) await pause(100);
        expect(proxy.connections()).toBeGreaterThanOrEqual(reached + 2);
        const refused = await Promise.all(
          Array.from({ length: 4 }, () => failureOf(probing.sql.query('SELECT 1'))),
        );
        expect(refused.map(codeOf)).toEqual(refused.map(() => 'DATABASE_OUT_OF_REACH'));
      } finally {
        proxy.thaw({ lostConnections: true });
      }
      await answersAgain(probing);
      const all = await Promise.all(
        Array.from({ length: 4 }, () => probing.sql.query<{ one: number }>('SELECT 1 AS one')),
      );
      expect(all).toEqual(all.map(() => [{ one: 1 }]));
    });
  });
});

/** Waits (bounded) until a query is answered: the breaker closes once its probe is. */
async function answersAgain(db: Database): Promise<void> {
  for (let tries = 0; ; tries++) {
    try {
      await db.sql.query('SELECT 1');
      return;
    } catch (error) {
      if (tries >= 100 || !isStoreUnreachable(error)) throw error;
      await pause(100);
    }
  }
}
