import { type Bus, createBus } from '@router/bus';
import { synthRequestV1, synthWorkerHeartbeatV1 } from '@router/contracts';
import { WorkerDirectory } from './worker-directory';

describe('WorkerDirectory', () => {
  let bus: Bus;
  let directory: WorkerDirectory;

  beforeEach(async () => {
    bus = createBus({ kind: 'memory' });
    directory = new WorkerDirectory(bus, { expiryMs: 60_000, waitMs: 50, now: Date.now });
    await directory.ready();
  });

  afterEach(async () => {
    directory.close();
    await bus.close();
  });

  it('sends a take of another subject only to workers whose heartbeat lists it', async () => {
    await bus.publish(synthWorkerHeartbeatV1, { workerId: 'oldworker1' });
    await bus.publish(synthWorkerHeartbeatV1, { workerId: 'newworker1', serves: [synthRequestV1.subject] });
    // Twenty keys of twenty shards (a key's shard is its first byte).
    const keys = Array.from({ length: 20 }, (_, i) => (i * 12).toString(16).padStart(2, '0').padEnd(64, '0'));
    const picked = await Promise.all(
      keys.map((key) => directory.pick(key, undefined, synthRequestV1.subject)),
    );
    expect(new Set(picked)).toEqual(new Set(['newworker1']));
    // Sentence takes still go to both.
    const pieces = await Promise.all(keys.map((key) => directory.pick(key)));
    expect(new Set(pieces)).toEqual(new Set(['oldworker1', 'newworker1']));
  });

  it('finds no worker for the subject when none lists it', async () => {
    await bus.publish(synthWorkerHeartbeatV1, { workerId: 'oldworker1' });
    await expect(directory.pick('0'.repeat(64), undefined, synthRequestV1.subject)).rejects.toThrow(
      'No synthesis worker',
    );
  });
});
