import { loadConfig, synthesisWorkerEnv, vendorBaseUrls } from '@router/config';
import { createLogger, Health } from '@router/observability';
import { KeyRing, ProviderKeyStore } from '@router/provider-keys';
import { closeAll, connectInfrastructure, runService, startBusService } from '@router/service-kit';
import { SynthesisWorker, SYNTHESIS_SERVICE } from '@router/synthesis';
import { createUpstreams } from '@router/vendors';

const schema = synthesisWorkerEnv;

runService(SYNTHESIS_SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const keyRing = KeyRing.parse(config.PROVIDER_KEY_MASTER_KEYS);
  const logger = createLogger({ service: SYNTHESIS_SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SYNTHESIS_SERVICE);
  const infra = await connectInfrastructure(SYNTHESIS_SERVICE, config, health, {
    database: true,
    blobs: true,
  });
  const keys = new ProviderKeyStore(infra.db.prisma, keyRing);
  const worker = new SynthesisWorker(
    {
      bus: infra.bus,
      blobs: infra.blobs,
      sql: infra.db.sql,
      keys,
      keyFailures: keys.failureReporter((err) => logger.debug({ err }, 'a key failure was not recorded')),
      adapter: createUpstreams(vendorBaseUrls(config)),
      logger,
      metrics: health.metrics,
    },
    {
      firstAudioTimeoutMs: config.SYNTH_FIRST_AUDIO_TIMEOUT_MS,
      takeTimeoutMs: config.SYNTH_TAKE_TIMEOUT_MS,
      heartbeatMs: config.SYNTH_HEARTBEAT_MS,
      keyCacheTtlMs: config.PROVIDER_KEY_CACHE_TTL_MS,
      outageStaleMs: config.DATABASE_OUTAGE_STALE_MS,
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
    drain: () => worker.drain(),
  });
  return closeAll(infra, () => worker.close(), service);
});
