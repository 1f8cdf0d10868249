import { join } from 'node:path';
import {
  commonEnv,
  databaseEnv,
  env,
  identityEnv,
  identityPolicy,
  loadConfig,
  natsEnv,
  sessionEnv,
  sessionSettings,
  signingEnv,
} from '@router/config';
import { dashboardPriceEnv, parseVendorPrices, startDashboard } from '@router/dashboard-api';
import { createLogger, Health } from '@router/observability';
import { closeAll, connectInfrastructure, runService } from '@router/service-kit';

const SERVICE = 'dashboard';

const schema = {
  ...commonEnv,
  ...natsEnv,
  ...databaseEnv,
  ...signingEnv,
  ...identityEnv,
  ...sessionEnv,
  ...dashboardPriceEnv,
  PORT: env.int({ default: 3004, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
  /** The front end's build; beside this app's code in dist/ (tools/build/build.mjs puts it there). */
  DASHBOARD_WEB_ROOT: env.string({ default: join(__dirname, '..', 'web') }),
};

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const prices = parseVendorPrices(config.VENDOR_PRICES, config.PRICE_CURRENCY);
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  const health = new Health(SERVICE);
  const infra = await connectInfrastructure(SERVICE, config, health, { database: true, blobs: false });
  const dashboard = await startDashboard(
    {
      port: config.PORT,
      host: config.HOST,
      identity: identityPolicy(config),
      sessions: sessionSettings(config),
      prices,
      webRoot: config.DASHBOARD_WEB_ROOT,
    },
    { prisma: infra.db.prisma, bus: infra.bus, logger, health },
  );
  return closeAll(infra, dashboard);
});
