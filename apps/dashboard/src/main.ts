import { join } from 'node:path';
import { dashboardEnv, identityPolicy, loadConfig, sessionSettings } from '@router/config';
import { parseVendorPrices, signInLimits, startDashboard } from '@router/dashboard-api';
import { createLogger, Health } from '@router/observability';
import { closeAll, connectInfrastructure, runService } from '@router/service-kit';

const SERVICE = 'dashboard';

/** The front end's build is beside this app's code in dist/ (tools/build/build.mjs puts it there). */
const schema = dashboardEnv(join(__dirname, '..', 'web'));

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
      signInLimits: signInLimits(config),
      webRoot: config.DASHBOARD_WEB_ROOT,
    },
    { prisma: infra.db.prisma, bus: infra.bus, logger, health },
  );
  return closeAll(infra, dashboard);
});
