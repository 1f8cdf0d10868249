import type { Sql } from '@router/db';
import { Registry } from 'prom-client';
import { RequestLogWriter, RequestTally } from './request-log';

/** A driver keeping each batch INSERT's parameters: one array per column, the org ids first. */
function fakeSql(): {
  sql: Sql;
  written: unknown[];
  statements: Array<{ text: string; params: unknown[][] }>;
} {
  const written: unknown[] = [];
  const statements: Array<{ text: string; params: unknown[][] }> = [];
  const sql: Sql = {
    query: <Row>(text: string, params: readonly unknown[] = []) => {
      const columns = params as unknown[][];
      statements.push({ text, params: columns });
      written.push(...(columns[0] ?? []));
      return Promise.resolve([] as Row[]);
    },
  };
  return { sql, written, statements };
}

function row() {
  const tally = new RequestTally();
  tally.settings({ vendor: 'vendor_a', model: 'model-1', voice: 'voice-1' });
  tally.sentence(12, true);
  return tally.row('org-1', null, 'speech', 200);
}

async function dropped(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric('router_request_log_dropped_total')?.get();
  return (metric?.values ?? []).reduce((sum, v) => sum + v.value, 0);
}

describe('RequestLogWriter', () => {
  it('queues and writes rows while enabled (the default)', async () => {
    const { sql, written } = fakeSql();
    const writer = new RequestLogWriter(sql, undefined, new Registry(), { flushMs: 0 });
    writer.record(row());
    expect(writer.pending).toBe(1);
    await writer.close();
    expect(written).toHaveLength(1);
  });

  it('writes a batch as one statement with one array per column, the same text for every batch', async () => {
    const { sql, statements } = fakeSql();
    const writer = new RequestLogWriter(sql, undefined, new Registry(), { flushMs: 0, batchSize: 2 });
    const first = row();
    for (let i = 0; i < 3; i += 1) writer.record(first);
    await writer.close();
    expect(statements.map((s) => s.params[0]?.length)).toEqual([2, 1]);
    expect(statements[0]?.text).toBe(statements[1]?.text);
    // Every column's array is the batch's length, and a row's values keep their places.
    const [params] = statements.map((s) => s.params);
    expect(params?.every((column) => column.length === 2)).toBe(true);
    expect(params?.map((column) => column[0])).toEqual([
      'org-1',
      first.startedAtMs,
      null,
      'speech',
      'vendor_a',
      'model-1',
      'voice-1',
      12,
      12,
      1,
      1,
      null,
      first.durationMs,
      'ok',
      200,
      null,
    ]);
  });

  it('keeps nothing when disabled: no row queued, written or counted as dropped', async () => {
    const { sql, written } = fakeSql();
    const registry = new Registry();
    const writer = new RequestLogWriter(sql, undefined, registry, { enabled: false, maxQueued: 1 });
    writer.record(row());
    writer.record(row());
    expect(writer.pending).toBe(0);
    await writer.close();
    expect(written).toEqual([]);
    expect(await dropped(registry)).toBe(0);
  });
});
