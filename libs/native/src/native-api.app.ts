import type { INestApplication } from '@nestjs/common';
import { AdminModule } from '@router/admin';
import type { BlobStore } from '@router/blob-store';
import type { Bus } from '@router/bus';
import { authChangedV1 } from '@router/contracts';
import type { PrismaClient, Sql } from '@router/db';
import type { Health, Logger } from '@router/observability';
import { createPipeline, type PipelineSettings } from '@router/pipeline';
import { type KeyRing, ProviderKeyStore } from '@router/provider-keys';
import {
  BusChangeNotifier,
  type Clock,
  composeModules,
  listeningPort,
  ServiceKitModule,
  startHttpApp,
} from '@router/service-kit';
import { NativeApiModule } from './native-api.module';
import { buildOpenApiDocument } from './openapi/openapi';
import { OrgRetention } from './speech/org-retention';
import { SpeechService } from './speech/speech.service';
import { OPENAPI_DOCUMENT } from './tokens';

export interface NativeApiConfig {
  port: number;
  host?: string;
  signingSecret: string;
  admin: { port: number; host: string; token?: string };
  cacheKeySecret: string;
  pipeline: PipelineSettings;
  /** Pieces resolved ahead of the one playing. */
  lookAhead: number;
  /** How long an org's retention is remembered (change events drop it sooner). */
  orgSettingsTtlMs: number;
}

export interface NativeApiDeps {
  prisma: PrismaClient;
  /** The same database as `prisma`, for plain SQL on request paths (`Database.sql`). */
  sql: Sql;
  bus: Bus;
  blobs: BlobStore;
  keyRing: KeyRing;
  logger: Logger;
  health: Health;
  clock?: Clock;
}

export interface RunningNativeApi {
  port: number;
  adminPort: number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** Starts the native API behind the gateway and, on its own listener, the admin API the CLI uses. */
export async function startNativeApi(
  config: NativeApiConfig,
  deps: NativeApiDeps,
): Promise<RunningNativeApi> {
  if (!LOOPBACK.has(config.admin.host) && !config.admin.token) {
    throw new Error('ADMIN_TOKEN is required when ADMIN_HOST is not a loopback address');
  }
  const changes = new BusChangeNotifier(deps.bus, deps.logger);
  const clock = deps.clock;
  const now = clock ? () => clock.now() : Date.now;
  const pipeline = await createPipeline({ bus: deps.bus, blobs: deps.blobs, now }, config.pipeline);
  const retention = new OrgRetention(deps.sql, config.orgSettingsTtlMs, now);
  const orgChanges = deps.bus.subscribe(authChangedV1, (event) => {
    if (event.kind === 'org') retention.forget(event.orgId);
  });
  await orgChanges.ready();
  const speech = new SpeechService({
    resolver: pipeline.resolver,
    retention,
    cacheKeySecret: config.cacheKeySecret,
    lookAhead: config.lookAhead,
    logger: deps.logger,
  });
  const kit = { logger: deps.logger, health: deps.health, ...(deps.clock ? { clock: deps.clock } : {}) };
  const api = await startHttpApp(
    composeModules('NativeApiRoot', [
      ServiceKitModule.forRoot({ ...kit, signingSecret: config.signingSecret }),
      NativeApiModule.forRoot({
        providerKeys: new ProviderKeyStore(deps.prisma, deps.keyRing),
        changes,
        speech,
      }),
    ]),
    {
      logger: deps.logger,
      port: config.port,
      ...(config.host ? { host: config.host } : {}),
      beforeListen: (app: INestApplication) => {
        app.get<{ current: unknown }>(OPENAPI_DOCUMENT).current = buildOpenApiDocument(app);
      },
    },
  );
  const admin = await startHttpApp(
    composeModules('AdminRoot', [
      ServiceKitModule.forRoot(kit),
      AdminModule.forRoot({
        prisma: deps.prisma,
        changes,
        ...(config.admin.token ? { token: config.admin.token } : {}),
      }),
    ]),
    { logger: deps.logger, port: config.admin.port, host: config.admin.host },
  );
  const port = listeningPort(api);
  const adminPort = listeningPort(admin);
  deps.logger.info({ port, adminPort, adminHost: config.admin.host }, 'native api listening');
  return {
    port,
    adminPort,
    async close() {
      await Promise.all([api.close(), admin.close()]);
      orgChanges.unsubscribe();
      pipeline.close();
    },
  };
}
