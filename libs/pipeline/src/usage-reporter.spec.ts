import { randomBytes } from 'node:crypto';
import { type Bus, createBus } from '@router/bus';
import { type CacheUsage, cacheUsageBatchV1, USAGE_BATCH_MAX } from '@router/contracts';
import { UsageReporter } from './usage-reporter';

describe('UsageReporter', () => {
  let bus: Bus;
  let batches: CacheUsage[][];

  beforeEach(async () => {
    bus = createBus({ kind: 'memory' });
    batches = [];
    await bus.subscribe(cacheUsageBatchV1, ({ events }) => void batches.push(events)).ready();
  });
  afterEach(() => bus.close());

  const hit = (): CacheUsage => ({
    orgId: '4f2c3b1a-0000-4000-8000-000000000001',
    cacheKey: randomBytes(32).toString('hex'),
    provider: 'vendor_a',
    chars: 12,
    kind: 'hit',
  });
  const sent = async (count: number): Promise<void> => {
    while (batches.length < count) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('sends the hits of a moment together, in one message, in the order they were served', async () => {
    const hits = [hit(), hit(), hit()];
    const reporter = new UsageReporter(bus);
    hits.forEach((h) => reporter.record(h));
    expect(batches).toEqual([]);
    await sent(1);
    expect(batches).toEqual([hits]);
    // The next hit starts a batch of its own.
    const later = hit();
    reporter.record(later);
    await sent(2);
    expect(batches).toEqual([hits, [later]]);
  });

  it('sends a full batch at once, and what waits when flushed (the app closing)', async () => {
    const reporter = new UsageReporter(bus);
    for (let i = 0; i < USAGE_BATCH_MAX + 1; i++) reporter.record(hit());
    await sent(1);
    expect(batches[0]).toHaveLength(USAGE_BATCH_MAX);
    reporter.flush();
    await sent(2);
    expect(batches[1]).toHaveLength(1);
    reporter.flush(); // nothing waits: nothing is sent
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(batches).toHaveLength(2);
  });
});
