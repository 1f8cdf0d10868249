import { randomUUID } from 'node:crypto';
import { createDatabase, type Database, type Sql } from '@router/db';
import { createScratchDatabase, type ScratchDatabase, startPrivatePostgres } from '@router/testing';
import { Registry } from 'prom-client';
import { type RequestLogRow, RequestLogWriter, RequestTally } from './request-log';

const SENTENCE = 'The quartz lantern hums at midnight.';

function rowOf(orgId: string, tally = new RequestTally()): RequestLogRow {
  tally.settings({ vendor: 'vendor_a', model: 'model-1', voice: 'voice-1' });
  tally.sentence(SENTENCE.length, true);
  tally.audio();
  return tally.row(orgId, 'f'.repeat(64), 'speech', 200);
}

async function counterValue(registry: Registry, name: string, reason?: string): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get();
  return (metric?.values ?? [])
    .filter((v) => reason === undefined || v.labels['reason'] === reason)
    .reduce((sum, v) => sum + v.value, 0);
}

/** The real driver, its statements counted by their first parameter's length (each one is a batch). */
function countingBatches(sql: Sql): { sql: Sql; batches: number[] } {
  const batches: number[] = [];
  return {
    sql: {
      query: (text, params = []) => {
        batches.push((params[0] as unknown[]).length);
        return sql.query(text, params);
      },
    },
    batches,
  };
}

/** Rows at the edges of what the columns take: nulls, empty labels, unicode and array-literal syntax, int4's max. */
function edgeRows(orgId: string): RequestLogRow[] {
  const base: RequestLogRow = {
    orgId,
    startedAtMs: Date.UTC(2026, 10, 29, 13, 59, 58, 987),
    keyHash: null,
    surface: 'stream',
    vendor: 'vendor_c',
    model: '',
    voice: '',
    chars: 0,
    cachedChars: 0,
    sentences: 0,
    cachedSentences: 0,
    firstAudioMs: null,
    durationMs: 0,
    status: 'ok',
    httpStatus: null,
    errorCode: null,
  };
  return [
    base,
    {
      ...base,
      startedAtMs: Date.UTC(1999, 11, 31, 23, 59, 59, 1),
      keyHash: 'a'.repeat(64),
      surface: 'mirror_rest',
      // Characters the driver must escape in an array literal, and labels that look like its NULL.
      model: 'NULL',
      voice: 'Zoë "quoted" \\ back, {braced} 声音 🎙️\u0301',
      chars: 2_147_483_647,
      cachedChars: 2_147_483_647,
      sentences: 2_147_483_647,
      cachedSentences: 2_147_483_647,
      firstAudioMs: 2_147_483_647,
      durationMs: 2_147_483_647,
      status: 'error',
      httpStatus: 599,
      errorCode: 'null',
    },
    // The longest labels a row carries (LABEL_MAX_CHARS, 200 characters, here astral: 400 UTF-16 units).
    { ...base, model: '🎙'.repeat(200), voice: ' '.repeat(200), errorCode: '', durationMs: 1 },
  ];
}

/** Writes the edge rows as one batch and expects each read back unchanged. */
async function writesEdgeRowsUnchanged(db: Database): Promise<void> {
  const orgId = randomUUID();
  const registry = new Registry();
  const writer = new RequestLogWriter(db.sql, undefined, registry, { flushMs: 0 });
  const rows = edgeRows(orgId);
  for (const row of rows) writer.record(row);
  await writer.close();
  expect(await counterValue(registry, 'router_request_log_dropped_total')).toBe(0);
  expect(await counterValue(registry, 'router_request_log_written_total')).toBe(rows.length);
  // Read back by duration: the base row (0 ms), the longest labels (1 ms), the maxima.
  expect(await readBack(db, orgId)).toEqual([rows[0], rows[2], rows[1]]);
}

/** The rows of `orgId` as the table holds them, by duration. */
async function readBack(db: Database, orgId: string): Promise<RequestLogRow[]> {
  const rows = await db.prisma.requestLogEntry.findMany({ where: { orgId }, orderBy: { durationMs: 'asc' } });
  return rows.map(({ id: _id, startedAt, ...row }) => ({
    ...row,
    startedAtMs: startedAt.getTime(),
    surface: row.surface as RequestLogRow['surface'],
    status: row.status as RequestLogRow['status'],
  }));
}

describe('request log writer (PostgreSQL)', () => {
  let scratch: ScratchDatabase;
  let db: Database;

  beforeAll(async () => {
    scratch = await createScratchDatabase('request_log');
    db = await createDatabase({ url: scratch.url });
    await db.migrate();
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await scratch?.drop();
  });

  it('writes queued rows in batches of batchSize, and counts them', async () => {
    const orgId = randomUUID();
    const registry = new Registry();
    const { sql, batches } = countingBatches(db.sql);
    const writer = new RequestLogWriter(sql, undefined, registry, { batchSize: 4, flushMs: 0 });
    for (let i = 0; i < 10; i += 1) writer.record(rowOf(orgId));
    expect(writer.pending).toBe(10);
    expect(await db.prisma.requestLogEntry.count({ where: { orgId } })).toBe(0);

    await writer.close();
    expect(batches).toEqual([4, 4, 2]);
    expect(writer.pending).toBe(0);
    const rows = await db.prisma.requestLogEntry.findMany({ where: { orgId } });
    expect(rows).toHaveLength(10);
    expect(rows[0]).toMatchObject({
      surface: 'speech',
      vendor: 'vendor_a',
      model: 'model-1',
      voice: 'voice-1',
      chars: SENTENCE.length,
      cachedChars: SENTENCE.length,
      sentences: 1,
      cachedSentences: 1,
      status: 'ok',
      httpStatus: 200,
      errorCode: null,
    });
    expect(await counterValue(registry, 'router_request_log_written_total')).toBe(10);
    expect(await counterValue(registry, 'router_request_log_dropped_total')).toBe(0);
  });

  it('writes a batch of edge values as given: nulls, empty and unicode labels, maxima', async () => {
    await writesEdgeRowsUnchanged(db);
  });

  it('writes on its own timer', async () => {
    const orgId = randomUUID();
    const writer = new RequestLogWriter(db.sql, undefined, new Registry(), { flushMs: 20 });
    writer.record(rowOf(orgId));
    try {
      for (let tries = 0; tries < 200; tries += 1) {
        if ((await db.prisma.requestLogEntry.count({ where: { orgId } })) === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(await db.prisma.requestLogEntry.count({ where: { orgId } })).toBe(1);
    } finally {
      await writer.close();
    }
  });

  it('drops and counts rows past maxQueued, keeping those queued before', async () => {
    const orgId = randomUUID();
    const registry = new Registry();
    const writer = new RequestLogWriter(db.sql, undefined, registry, { maxQueued: 3, flushMs: 0 });
    for (let i = 0; i < 5; i += 1) writer.record(rowOf(orgId));
    expect(writer.pending).toBe(3);
    expect(await counterValue(registry, 'router_request_log_dropped_total', 'queue_full')).toBe(2);

    await writer.close();
    expect(await db.prisma.requestLogEntry.count({ where: { orgId } })).toBe(3);
    // Room again once written.
    writer.record(rowOf(orgId));
    expect(writer.pending).toBe(1);
  });

  it('keeps no sentence text in a row', async () => {
    const orgId = randomUUID();
    const writer = new RequestLogWriter(db.sql, undefined, new Registry(), { flushMs: 0 });
    writer.record(rowOf(orgId));
    await writer.close();
    const [raw] = await db.prisma.$queryRaw<Array<{ row: string }>>`
      SELECT row_to_json(r)::text AS row FROM request_log r WHERE org_id = ${orgId}::uuid`;
    expect(raw?.row).toContain('vendor_a');
    expect(raw?.row).not.toContain('quartz');
  });
});

describe('request log writer (PGlite)', () => {
  it('writes a batch of edge values as given: nulls, empty and unicode labels, maxima', async () => {
    const db = await createDatabase({ pgliteDataDir: 'memory://' });
    try {
      await db.migrate();
      await writesEdgeRowsUnchanged(db);
    } finally {
      await db.close();
    }
  }, 60_000);
});

describe('request log writer (PostgreSQL down)', () => {
  it('records without waiting or throwing, and counts the failed batch as dropped', async () => {
    const server = await startPrivatePostgres();
    const db = await createDatabase({ url: server.url });
    try {
      await db.migrate();
      const registry = new Registry();
      const writer = new RequestLogWriter(db.sql, undefined, registry, { flushMs: 0 });
      await server.stop();

      // The reply's side: record returns at once and never throws while the database is gone.
      expect(() => {
        for (let i = 0; i < 3; i += 1) writer.record(rowOf(randomUUID()));
      }).not.toThrow();
      expect(writer.pending).toBe(3);

      await expect(writer.close()).resolves.toBeUndefined();
      expect(writer.pending).toBe(0);
      expect(await counterValue(registry, 'router_request_log_dropped_total', 'write_failed')).toBe(3);
      expect(await counterValue(registry, 'router_request_log_written_total')).toBe(0);

      // Back up: rows are written again, with no restart of the writer. The pool's first query after the
      // restart may still meet a connection the server ended (that row is dropped and counted too).
      await server.restart();
      const orgId = randomUUID();
      let written = 0;
      for (let tries = 0; tries < 50 && written === 0; tries += 1) {
        writer.record(rowOf(orgId));
        await writer.flush();
        written = await db.prisma.requestLogEntry.count({ where: { orgId } }).catch(() => 0);
        if (written === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(written).toBe(1);
    } finally {
      await db.close();
      await server.close();
    }
  }, 120_000);
});
