import { commonEnv, env, loadConfig } from '@router/config';
import { createLogger, Health } from '@router/observability';
import { runService } from '@router/service-kit';
import { simConfigFromEnv, startVendorSim, vendorSimEnv } from '@router/vendor-sim';

const SERVICE = 'vendor-sim';

const schema = {
  ...commonEnv,
  ...vendorSimEnv,
  PORT: env.int({ default: 4010, min: 0, max: 65535 }),
  HOST: env.string({ default: '0.0.0.0' }),
};

runService(SERVICE, async () => {
  const config = loadConfig(schema, process.env);
  const logger = createLogger({ service: SERVICE, level: config.LOG_LEVEL });
  return startVendorSim(
    { port: config.PORT, host: config.HOST, ...simConfigFromEnv(config) },
    { logger, health: new Health(SERVICE) },
  );
});
