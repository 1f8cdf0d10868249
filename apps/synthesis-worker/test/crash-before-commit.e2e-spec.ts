import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { createBlobStore } from '@router/blob-store';
import { createBus } from '@router/bus';
import { synthTakeV1, addressedTo } from '@router/contracts';
import { call, createOrgWithKey, readE2eStack, spawnApp, waitFor } from '@router/testing';
import { SimControl } from '@router/vendor-sim';

const stack = readE2eStack();
const sim = new SimControl(stack.simUrl);

/**
 * Issue 3's crash case: a worker killed between writing a take's blob and committing it. The worker here is
 * a real one on its own NATS prefix (so no other test's take reaches it), killed by SIGKILL the moment its
 * audio blob is written; the e2e stack's cache-service then finds the blob without an index row.
 */
describe('a synthesis worker killed between blob write and commit (e2e)', () => {
  it('leaves no index row, and the next orphan sweep removes the blob', async () => {
    const org = createOrgWithKey(stack.adminUrl, `crash-${randomUUID().slice(0, 8)}`);
    const vendorKey = `vk-crash-${randomUUID()}`;
    const put = await call(stack.gatewayUrl, 'PUT', '/v1/provider-keys/vendor_a', {
      key: org.key,
      body: { api_key: vendorKey },
    });
    expect(put.status).toBe(200);

    const prefix = `crash${randomBytes(4).toString('hex')}`;
    const workerId = randomBytes(8).toString('hex');
    const worker = spawnApp(
      `crash-worker-${workerId}`,
      'dist/tools/crash-worker/main.js',
      { ...stack.env, NATS_SUBJECT_PREFIX: prefix, WORKER_ID: workerId },
      stack.logDir,
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      worker.child.once('exit', (_c, s) => resolve(s)),
    );
    const bus = createBus({ kind: 'nats', url: stack.env['NATS_URL'], name: 'crash-test', prefix });
    const blobs = createBlobStore({
      kind: 's3',
      endpoint: stack.env['S3_ENDPOINT'],
      accessKey: stack.env['S3_ACCESS_KEY'],
      secretKey: stack.env['S3_SECRET_KEY'],
      bucket: stack.env['S3_BUCKET'],
    });
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await waitFor(
        'the crash worker',
        async () => readFileSync(worker.logFile, 'utf8').includes('ready'),
        20_000,
      );
      const cacheKey = randomBytes(32).toString('hex');
      const take = bus.requestStream(
        addressedTo(synthTakeV1, workerId),
        {
          orgId: org.orgId,
          cacheKey,
          cache: true,
          text: `This take is never committed ${randomUUID().slice(0, 8)}.`,
          settings: {
            vendor: 'vendor_a',
            model: 'a_model_1',
            voice: 'aarila',
            language: 'en-IN',
            speed: 1,
            sampleRate: 16000,
            format: 'pcm',
            options: {},
          },
        },
        { window: 16 },
      );
      let audio = 0;
      const streamed = (async () => {
        for await (const chunk of take) audio += chunk.length;
      })();
      // The worker dies once the whole take has reached it and us; its stream never gets a trailer.
      await expect(exited).resolves.toBe('SIGKILL');
      take.cancel();
      await streamed.catch(() => undefined);
      expect(audio).toBeGreaterThan(1000);
      expect(await sim.callCount('vendor_a', { key: vendorKey })).toBe(1);

      // Written under the take's own name: the kill came after the blob.
      const written: string[] = [];
      for await (const blob of blobs.list(`${org.orgId}/${cacheKey}/`)) written.push(blob.name);
      expect(written).toHaveLength(1);
      const audioName = written[0] ?? '';
      expect(audioName).toMatch(/^[^/]+\/[0-9a-f]{64}\/\d{13}-[0-9a-f]{12}\.audio$/);
      const rows = async () =>
        (await db.query('SELECT count(*)::int AS n FROM cache_entries WHERE org_id = $1', [org.orgId]))
          .rows[0].n as number;
      expect(await rows()).toBe(0);
      // The stack's cache-service sweeps every second and leaves blobs alone for 15 s (CACHE_ORPHAN_GRACE_MS).
      await waitFor('the orphan sweep', async () => (await blobs.stat(audioName)) === null, 45_000, 250);
      expect(await rows()).toBe(0);
    } finally {
      await worker.stop();
      await bus.close();
      await blobs.close();
      await db.end();
    }
  }, 90_000);
});
