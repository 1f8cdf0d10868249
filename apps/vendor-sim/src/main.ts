import { loadConfig, vendorSimAppEnv } from '@router/config';
import { createLogger, Health } from '@router/observability';
import { runService } from '@router/service-kit';
import { simConfigFromEnv, startVendorSim } from '@router/vendor-sim';

const SERVICE = 'vendor-sim';

const schema = vendorSimAppEnv;

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  return startVendorSim(
    { port: config.PORT, host: config.HOST, ...simConfigFromEnv(config) },
    { logger, health: new Health(SERVICE) },
  );
});
