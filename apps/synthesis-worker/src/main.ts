import {
  commonEnv,
  databaseEnv,
  env,
  loadConfig,
  natsEnv,
  providerKeyEnv,
  s3Env,
  vendorUpstreamEnv,
  vendorBaseUrls,
} from '@router/config';
import { createLogger, Health } from '@router/observability';
import { KeyRing, ProviderKeyStore } from '@router/provider-keys';
import { closeAll, connectInfrastructure, runService, startBusService } from '@router/service-kit';
import { SynthesisWorker, SYNTHESIS_SERVICE } from '@router/synthesis';
import { createUpstreams } from '@router/vendors';

const schema = {
  ...commonEnv,
  ...natsEnv,
  ...databaseEnv,
  ...s3Env,
  ...providerKeyEnv,
  ...vendorUpstreamEnv,
  PORT: env.int({ default: 3002, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
  SYNTH_FIRST_AUDIO_TIMEOUT_MS: env.int({ default: 10_000, min: 10 }),
  SYNTH_HEARTBEAT_MS: env.int({ default: 1000, min: 50 }),
  /** A claim on a key's take older than this no longer holds (its worker died unnoticed). */
  SYNTH_CLAIM_STALE_MS: env.int({ default: 120_000, min: 100 }),
  /** The length of a worker's lease on shards of the cache keys (claimed with no round trip); 0 leases none. */
  SYNTH_LEASE_MS: env.int({ default: 10_000, min: 0 }),
  /** A committed take's blob not read within this is synthesized afresh, uncached. */
  CACHE_READ_TIMEOUT_MS: env.int({ default: 2000, min: 10 }),
  PROVIDER_KEY_CACHE_TTL_MS: env.int({ default: 5000, min: 0 }),
};

runService(SYNTHESIS_SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const keyRing = KeyRing.parse(config.PROVIDER_KEY_MASTER_KEYS);
  const logger = createLogger({ service: SYNTHESIS_SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SYNTHESIS_SERVICE);
  const infra = await connectInfrastructure(SYNTHESIS_SERVICE, config, health, {
    database: true,
    blobs: true,
  });
  const worker = new SynthesisWorker(
    {
      bus: infra.bus,
      blobs: infra.blobs,
      sql: infra.db.sql,
      keys: new ProviderKeyStore(infra.db.prisma, keyRing),
      adapter: createUpstreams(vendorBaseUrls(config)),
      logger,
    },
    {
      firstAudioTimeoutMs: config.SYNTH_FIRST_AUDIO_TIMEOUT_MS,
      heartbeatMs: config.SYNTH_HEARTBEAT_MS,
      keyCacheTtlMs: config.PROVIDER_KEY_CACHE_TTL_MS,
      claimStaleMs: config.SYNTH_CLAIM_STALE_MS,
      leaseMs: config.SYNTH_LEASE_MS,
      leaseGroup: config.NATS_SUBJECT_PREFIX ?? '',
      cacheReadTimeoutMs: config.CACHE_READ_TIMEOUT_MS,
    },
  );
  const service = await startBusService({
    name: SYNTHESIS_SERVICE,
    port: config.PORT,
    host: config.HOST,
    bus: infra.bus,
    logger,
    health,
    serve: () => worker.serve(),
  });
  return closeAll(infra, () => worker.close(), service);
});
