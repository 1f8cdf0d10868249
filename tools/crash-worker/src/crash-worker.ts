import type { BlobStore } from '@router/blob-store';
import { Health, createLogger } from '@router/observability';
import { KeyRing, ProviderKeyStore } from '@router/provider-keys';
import { connectInfrastructure } from '@router/service-kit';
import { SynthesisWorker } from '@router/synthesis';
import { createUpstreams } from '@router/vendors';

/**
 * For the crash test: a real synthesis worker whose process is killed (SIGKILL, no clean-up) the moment it
 * has written a take's audio blob, before it commits the take to the cache index. Only the blob store is
 * wrapped; everything else is the worker as deployed. Configured by the worker's own environment variables.
 */
export async function runWorkerThatDiesBeforeCommit(env: NodeJS.ProcessEnv): Promise<void> {
  const need = (name: string): string => {
    const value = env[name];
    if (!value) throw new Error(`${name} is required`);
    return value;
  };
  const infra = await connectInfrastructure(
    'crash-worker',
    {
      NATS_URL: need('NATS_URL'),
      NATS_SUBJECT_PREFIX: need('NATS_SUBJECT_PREFIX'),
      DATABASE_URL: need('DATABASE_URL'),
      S3_ENDPOINT: need('S3_ENDPOINT'),
      S3_ACCESS_KEY: need('S3_ACCESS_KEY'),
      S3_SECRET_KEY: need('S3_SECRET_KEY'),
      S3_BUCKET: need('S3_BUCKET'),
    },
    new Health('crash-worker'),
    { database: true, blobs: true },
  );
  const store = infra.blobs;
  const blobs: BlobStore = Object.create(store) as BlobStore;
  blobs.put = async (name, data, meta) => {
    await store.put(name, data, meta);
    if (name.endsWith('.audio')) process.kill(process.pid, 'SIGKILL');
  };
  const worker = new SynthesisWorker(
    {
      bus: infra.bus,
      blobs,
      sql: infra.db.sql,
      keys: new ProviderKeyStore(infra.db.prisma, KeyRing.parse(need('PROVIDER_KEY_MASTER_KEYS'))),
      adapter: createUpstreams({ vendor_a: need('VENDOR_A_BASE_URL') }),
      logger: createLogger({ service: 'crash-worker', level: env['LOG_LEVEL'] ?? 'warn' }),
    },
    {
      firstAudioTimeoutMs: 10_000,
      takeTimeoutMs: 90_000,
      heartbeatMs: 200,
      keyCacheTtlMs: 0,
      outageStaleMs: 0,
      claimStaleMs: 60_000,
      leaseMs: 0,
      leaseGroup: need('NATS_SUBJECT_PREFIX'),
      cacheReadTimeoutMs: 2000,
      workerId: need('WORKER_ID'),
    },
  );
  await Promise.all(worker.serve().map((s) => s.ready()));
  process.stdout.write('crash-worker ready\n');
}
