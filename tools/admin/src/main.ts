import { env, loadConfig } from '@router/config';
import { runCli } from './cli';

const config = loadConfig(
  {
    ADMIN_URL: env.url({ protocols: ['http', 'https'], default: 'http://127.0.0.1:3100' }),
    ADMIN_TOKEN: env.optionalString(),
  },
  process.env,
);

runCli(process.argv.slice(2), {
  adminUrl: config.ADMIN_URL,
  adminToken: config.ADMIN_TOKEN,
  out: (line) => process.stdout.write(`${line}\n`),
  fetch,
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`router-admin failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
