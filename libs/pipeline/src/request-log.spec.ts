import type { PrismaClient } from '@router/db';
import { Registry } from 'prom-client';
import { RequestLogWriter, RequestTally } from './request-log';

/** A client whose only table is the request log's, keeping what `createMany` is given. */
function fakePrisma(): { prisma: PrismaClient; written: unknown[] } {
  const written: unknown[] = [];
  const prisma = {
    requestLogEntry: {
      createMany: ({ data }: { data: unknown[] }) => {
        written.push(...data);
        return Promise.resolve({ count: data.length });
      },
    },
  } as unknown as PrismaClient;
  return { prisma, written };
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
    const { prisma, written } = fakePrisma();
    const writer = new RequestLogWriter(prisma, undefined, new Registry(), { flushMs: 0 });
    writer.record(row());
    expect(writer.pending).toBe(1);
    await writer.close();
    expect(written).toHaveLength(1);
  });

  it('keeps nothing when disabled: no row queued, written or counted as dropped', async () => {
    const { prisma, written } = fakePrisma();
    const registry = new Registry();
    const writer = new RequestLogWriter(prisma, undefined, registry, { enabled: false, maxQueued: 1 });
    writer.record(row());
    writer.record(row());
    expect(writer.pending).toBe(0);
    await writer.close();
    expect(written).toEqual([]);
    expect(await dropped(registry)).toBe(0);
  });
});
