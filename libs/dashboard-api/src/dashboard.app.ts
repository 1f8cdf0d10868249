import { resolve } from 'node:path';
import { AdminService, MembersService, type MembersSettings } from '@router/admin';
import type { Bus } from '@router/bus';
import type { PrismaClient } from '@router/db';
import type { Health, Logger } from '@router/observability';
import {
  BusChangeNotifier,
  composeModules,
  fillOpenApiPart,
  type IdentityPolicy,
  listeningPort,
  ServiceKitModule,
  startHttpApp,
  Drain,
  within,
} from '@router/service-kit';
import { DashboardModule } from './dashboard.module';
import { dashboardOpenApiPart } from './openapi';
import type { VendorPrices } from './prices';
import { SignInLimiter, type SignInLimits } from './session/sign-in-limits';

export interface DashboardConfig {
  port: number;
  host?: string;
  identity: IdentityPolicy;
  sessions: MembersSettings;
  prices: VendorPrices;
  signInLimits: SignInLimits;
  webRoot: string;
}

export interface DashboardDeps {
  prisma: PrismaClient;
  bus: Bus;
  logger: Logger;
  health: Health;
}

export interface RunningDashboard {
  port: number;
  /** Fails readiness, refuses new requests (503) and waits up to `ms` for the open ones. */
  drain(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the dashboard behind the gateway: the front end and its session endpoints. */
export async function startDashboard(
  config: DashboardConfig,
  deps: DashboardDeps,
): Promise<RunningDashboard> {
  const changes = new BusChangeNotifier(deps.bus, deps.logger);
  const drain = new Drain(deps.health);
  const app = await startHttpApp(
    composeModules('DashboardRoot', [
      ServiceKitModule.forRoot({ logger: deps.logger, health: deps.health, identity: config.identity }),
      DashboardModule.forRoot({
        prisma: deps.prisma,
        bus: deps.bus,
        admin: new AdminService(deps.prisma, changes),
        members: new MembersService(deps.prisma, config.sessions),
        prices: config.prices,
        signInLimiter: new SignInLimiter(config.signInLimits),
        webRoot: resolve(config.webRoot),
      }),
    ]),
    {
      logger: deps.logger,
      port: config.port,
      ...(config.host ? { host: config.host } : {}),
      drain,
      beforeListen: (app) => fillOpenApiPart(app, dashboardOpenApiPart(app)),
    },
  );
  const port = listeningPort(app);
  deps.logger.info({ port }, 'dashboard listening');
  return {
    port,
    async drain(ms) {
      drain.begin();
      await within(drain.idle(), ms);
    },
    close: () => app.close(),
  };
}
