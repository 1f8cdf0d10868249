import { join, resolve } from 'node:path';
import { AdminService, MembersService } from '@router/admin';
import { createBlobStore } from '@router/blob-store';
import { createBus } from '@router/bus';
import { serveCache } from '@router/cache';
import {
  loadConfig,
  orgLimitDefaults,
  replyServicesSettings,
  databaseTimeouts,
  sessionSettings,
  standaloneEnv,
  vendorBaseUrls,
} from '@router/config';
import { parseVendorPrices, signInLimits, startDashboard } from '@router/dashboard-api';
import { createDatabase } from '@router/db';
import { startEdgeGateway } from '@router/edge';
import { startMirrorApp } from '@router/mirror';
import { startNativeApi } from '@router/native';
import { createLogger, Health } from '@router/observability';
import { KeyRing, ProviderKeyStore } from '@router/provider-keys';
import { BusChangeNotifier, closeAll, runService, within } from '@router/service-kit';
import { SynthesisWorker } from '@router/synthesis';
import { startVendorSim } from '@router/vendor-sim';
import { createUpstreams, MIRRORS, VENDOR_IDS } from '@router/vendors';
import { describeKeyPlacements } from '@router/vendors-core';
import { lockDataDir } from './data-dir-lock';
import { createDemoOrgOnEmptyDatabase, demoSignIn } from './demo-org';
import { firstSoundCommand, firstSoundIsSimulated } from './first-sound';
import { loadOrCreateSecrets } from './secrets';
import { type StandaloneTls, standaloneTls } from './tls';

const SERVICE = 'router';

/**
 * Every app in one process, with embedded defaults: the in-process bus, filesystem blobs, an embedded
 * Postgres (PGlite) unless DATABASE_URL is set, and the simulated vendors for every vendor whose
 * `VENDOR_X_BASE_URL` is not set. Same code paths as the distributed services.
 */
const schema = standaloneEnv(join(__dirname, '..', '..', 'dashboard', 'web'));

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const prices = parseVendorPrices(config.VENDOR_PRICES, config.PRICE_CURRENCY);
  const startedAt = Date.now();
  const dataDir = resolve(config.DATA_DIR);
  const dataDirLock = lockDataDir(dataDir);
  const secrets = loadOrCreateSecrets(dataDir, {
    ...(config.INTERNAL_SIGNING_SECRET ? { signingSecret: config.INTERNAL_SIGNING_SECRET } : {}),
    ...(config.PROVIDER_KEY_MASTER_KEYS ? { providerKeyMasterKeys: config.PROVIDER_KEY_MASTER_KEYS } : {}),
    ...(config.CACHE_KEY_SECRET ? { cacheKeySecret: config.CACHE_KEY_SECRET } : {}),
  });
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SERVICE);

  const db = await createDatabase(
    config.DATABASE_URL
      ? { url: config.DATABASE_URL, timeouts: databaseTimeouts(config) }
      : { pgliteDataDir: resolve(dataDir, 'pg') },
  );
  await db.migrate();
  const bus = createBus({ kind: 'memory' });
  const blobs = createBlobStore({ kind: 'fs', root: resolve(dataDir, 'blobs') });
  await blobs.ready();
  const cache = serveCache(
    {
      bus,
      prisma: db.prisma,
      sql: db.sql,
      blobs,
      logger,
      startedAt,
      metrics: health.metrics,
    },
    { requestLogRetentionDays: config.REQUEST_LOG_RETENTION_DAYS },
  );
  const keyRing = KeyRing.parse(secrets.providerKeyMasterKeys);

  const configured = vendorBaseUrls(config);
  const simulated = VENDOR_IDS.filter((vendor) => configured[vendor] === undefined);
  const sim =
    simulated.length > 0
      ? await startVendorSim({ port: 0, host: '127.0.0.1' }, { logger, health: new Health('vendor-sim') })
      : undefined;
  const baseUrls = {
    ...Object.fromEntries(simulated.map((v) => [v, `http://127.0.0.1:${sim?.port ?? 0}/${v}`])),
    ...configured,
  };
  const vendorKeys = new ProviderKeyStore(db.prisma, keyRing);
  const worker = new SynthesisWorker(
    {
      bus,
      blobs,
      sql: db.sql,
      keys: vendorKeys,
      keyFailures: vendorKeys.failureReporter((err) =>
        logger.debug({ err }, 'a key failure was not recorded'),
      ),
      adapter: createUpstreams(baseUrls),
      logger,
      metrics: health.metrics,
    },
    {
      firstAudioTimeoutMs: config.SYNTH_FIRST_AUDIO_TIMEOUT_MS,
      takeTimeoutMs: config.SYNTH_TAKE_TIMEOUT_MS,
      heartbeatMs: 1000,
      keyCacheTtlMs: config.PROVIDER_KEY_CACHE_TTL_MS,
      outageStaleMs: config.DATABASE_OUTAGE_STALE_MS,
      // One worker in one process: no other worker can hold a claim of its.
      claimStaleMs: 120_000,
      leaseMs: 10_000,
      cacheReadTimeoutMs: config.CACHE_READ_TIMEOUT_MS,
    },
  );
  const workers = [...cache.subscriptions, ...worker.serve()];

  const identity = {
    secret: secrets.signingSecret,
    maxAgeMs: config.IDENTITY_MAX_AGE_MS,
    maxFutureSkewMs: config.IDENTITY_MAX_FUTURE_SKEW_MS,
  };
  const api = await startNativeApi(
    {
      port: 0,
      host: '127.0.0.1',
      identity,
      ...replyServicesSettings({ ...config, CACHE_KEY_SECRET: secrets.cacheKeySecret }),
      vendorBaseUrls: baseUrls,
      lookAhead: config.LOOK_AHEAD,
      streamIdleTimeoutMs: config.STREAM_IDLE_TIMEOUT_MS,
      voiceListTimeoutMs: config.VOICE_LIST_TIMEOUT_MS,
      sessions: sessionSettings(config),
      admin: { port: config.ADMIN_PORT, host: '127.0.0.1' },
    },
    { prisma: db.prisma, sql: db.sql, bus, blobs, keyRing, logger, health },
  );
  // Every mirror in the registry is served too, each as its own app on a loopback port.
  const mirrors = await Promise.all(
    MIRRORS.map((mirror) =>
      startMirrorApp(
        {
          ...replyServicesSettings({ ...config, CACHE_KEY_SECRET: secrets.cacheKeySecret }),
          vendorBaseUrls: baseUrls,
          port: 0,
          host: '127.0.0.1',
          identity,
          lookAhead: config.LOOK_AHEAD,
          maxRequestBodyBytes: config.MAX_REQUEST_BODY_BYTES,
          maxSocketMessageBytes: config.MAX_SOCKET_MESSAGE_BYTES,
        },
        { prisma: db.prisma, sql: db.sql, bus, blobs, keyRing, logger, health },
        mirror,
      ).then((app) => ({ mirror, app })),
    ),
  );
  const dashboard = await startDashboard(
    {
      port: 0,
      host: '127.0.0.1',
      identity,
      sessions: sessionSettings(config),
      prices,
      signInLimits: signInLimits(config),
      webRoot: config.DASHBOARD_WEB_ROOT,
    },
    { prisma: db.prisma, bus, logger, health },
  );
  const tls = await standaloneTls(config, dataDir);
  if (tls.tls === undefined && tls.why !== undefined) {
    logger.warn({ why: tls.why }, 'no TLS port: set TLS_CERT_FILE and TLS_KEY_FILE, or install openssl');
  }
  const gateway = await startEdgeGateway(
    {
      port: config.PORT,
      host: config.HOST,
      ...(tls.tls ? { tls: tls.tls } : {}),
      internalPort: config.INTERNAL_PORT,
      internalHost: config.INTERNAL_HOST,
      nativeApiUrl: `http://127.0.0.1:${api.port}`,
      dashboardUrl: `http://127.0.0.1:${dashboard.port}`,
      mirrorUrls: Object.fromEntries(
        mirrors.map(({ mirror, app }) => [mirror.vendor, `http://127.0.0.1:${app.port}`]),
      ),
      signingSecret: secrets.signingSecret,
      authCacheTtlMs: config.AUTH_CACHE_TTL_MS,
      outageStaleMs: config.DATABASE_OUTAGE_STALE_MS,
      maxRequestBodyBytes: config.MAX_REQUEST_BODY_BYTES,
      maxSocketMessageBytes: config.MAX_SOCKET_MESSAGE_BYTES,
      clientStallMs: config.CLIENT_STALL_TIMEOUT_MS,
      orgLimits: orgLimitDefaults(config),
    },
    { prisma: db.prisma, bus, logger, health },
  );

  const members = new MembersService(db.prisma, sessionSettings(config));
  const demoKey = await createDemoOrgOnEmptyDatabase(
    new AdminService(db.prisma, new BusChangeNotifier(bus, logger)),
    vendorKeys,
    members,
    simulated,
  );
  const signIn = await demoSignIn(members);
  printWelcome({
    port: gateway.port,
    tlsPort: gateway.tlsPort,
    tls,
    adminPort: api.adminPort,
    database: db.kind,
    dataDir,
    demoKey,
    signIn,
    simulated,
    mirrors: mirrors.map(({ mirror }) => ({
      vendor: mirror.vendor,
      keyAt: describeKeyPlacements(mirror.access.keyPlacements),
    })),
  });
  return closeAll(
    () => Promise.resolve(dataDirLock.release()),
    db,
    ...(sim ? [sim] : []),
    blobs,
    bus,
    cache,
    { close: () => worker.close(), drain: (ms) => within(worker.drain(), ms) },
    () => Promise.resolve(workers.forEach((s) => s.unsubscribe())),
    api,
    dashboard,
    ...mirrors.map(({ app }) => app),
    gateway,
  );
});

function printWelcome(info: {
  port: number;
  tlsPort: number | undefined;
  tls: StandaloneTls;
  adminPort: number;
  database: string;
  dataDir: string;
  demoKey: string | undefined;
  signIn: { email: string; code: string; expiresAt: string } | undefined;
  simulated: string[];
  mirrors: Array<{ vendor: string; keyAt: string }>;
}): void {
  const lines = [
    '',
    `The router is listening on http://localhost:${info.port} (HTTP and WebSocket).`,
    ...tlsLines(info.tlsPort, info.tls),
    `Data: ${info.database === 'pglite' ? `embedded Postgres in ${info.dataDir}/pg` : 'the Postgres at DATABASE_URL'}; admin API on 127.0.0.1:${info.adminPort}.`,
    info.simulated.length === 10
      ? 'Vendors: all ten simulated (set VENDOR_A_BASE_URL … VENDOR_J_BASE_URL to use real ones).'
      : `Vendors simulated: ${info.simulated.join(', ') || 'none'}; the others use their VENDOR_X_BASE_URL.`,
    '',
    ...(info.demoKey
      ? [
          'A demo org was created, with a simulated key for each simulated vendor.',
          'Its API key (shown once, store it now):',
          `  ${info.demoKey}`,
          '',
        ]
      : []),
    `The dashboard: http://localhost:${info.port}/dashboard/`,
    ...(info.signIn
      ? [
          `  Sign in as ${info.signIn.email} with the one-time code ${info.signIn.code}`,
          `  (works once, until ${info.signIn.expiresAt}; each start prints a new one).`,
        ]
      : [
          '  Sign in with a one-time code: add a member with',
          `  ADMIN_URL=http://127.0.0.1:${info.adminPort} npm run admin -- member add <org id> <email>`,
        ]),
    '',
    firstSoundIsSimulated(info.simulated)
      ? 'Your first sound (hello.mp3, from the simulated vendor_a):'
      : 'Your first sound (hello.mp3), once the org has stored its vendor_a key (PUT /v1/provider-keys/vendor_a):',
    `  ${firstSoundCommand(`http://localhost:${info.port}`, info.demoKey ?? '<key>')}`,
    '',
    'Create an org and a key with the admin CLI:',
    `  ADMIN_URL=http://127.0.0.1:${info.adminPort} npm run admin -- org create --name "My org"`,
    `  ADMIN_URL=http://127.0.0.1:${info.adminPort} npm run admin -- key issue <org id>`,
    'Then, for example:',
    `  curl http://localhost:${info.port}/v1/models`,
    `  curl -H "Authorization: Bearer <key>" http://localhost:${info.port}/v1/provider-keys`,
    ...(info.mirrors.length > 0
      ? [
          '',
          "A vendor's own client works with the router by changing its base URL and its key (the router key):",
          ...info.mirrors.map(
            ({ vendor, keyAt }) =>
              `  ${vendor}: http://localhost:${info.port}/${vendor}, the key in ${keyAt}`,
          ),
        ]
      : []),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Where the TLS port is and, for a certificate made here, how a client trusts it. */
function tlsLines(port: number | undefined, tls: StandaloneTls): string[] {
  if (port === undefined) return tls.tls === undefined && tls.why ? [`No TLS port: ${tls.why}.`] : [];
  const lines = [`And on https://localhost:${port} (HTTPS and wss://).`];
  if (!('selfSigned' in tls) || tls.selfSigned === undefined) return lines;
  return [
    ...lines,
    `  Its certificate is self-signed: a client trusts ${tls.selfSigned}, e.g.`,
    `  curl --cacert ${tls.selfSigned} https://localhost:${port}/v1/models`,
    `  NODE_EXTRA_CA_CERTS=${tls.selfSigned} node your-client.js`,
  ];
}
