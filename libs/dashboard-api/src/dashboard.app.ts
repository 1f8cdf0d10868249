import { resolve } from 'node:path';
import { AdminService, MembersService, type MembersSettings } from '@router/admin';
import type { Bus } from '@router/bus';
import type { PrismaClient } from '@router/db';
import type { Health, Logger } from '@router/observability';
import {
  BusChangeNotifier,
  composeModules,
  type IdentityPolicy,
  listeningPort,
  ServiceKitModule,
  startHttpApp,
} from '@router/service-kit';
import { DashboardModule } from './dashboard.module';
import type { VendorPrices } from './prices';

export interface DashboardConfig {
  port: number;
  host?: string;
  identity: IdentityPolicy;
  sessions: MembersSettings;
  prices: VendorPrices;
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
  close(): Promise<void>;
}

/** Starts the dashboard behind the gateway: the front end and its session endpoints. */
export async function startDashboard(
  config: DashboardConfig,
  deps: DashboardDeps,
): Promise<RunningDashboard> {
  const changes = new BusChangeNotifier(deps.bus, deps.logger);
  const app = await startHttpApp(
    composeModules('DashboardRoot', [
      ServiceKitModule.forRoot({ logger: deps.logger, health: deps.health, identity: config.identity }),
      DashboardModule.forRoot({
        prisma: deps.prisma,
        admin: new AdminService(deps.prisma, changes),
        members: new MembersService(deps.prisma, config.sessions),
        prices: config.prices,
        webRoot: resolve(config.webRoot),
      }),
    ]),
    { logger: deps.logger, port: config.port, ...(config.host ? { host: config.host } : {}) },
  );
  const port = listeningPort(app);
  deps.logger.info({ port }, 'dashboard listening');
  return { port, close: () => app.close() };
}
