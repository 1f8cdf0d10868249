import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT, servicesEnv, startStack } from '@router/testing';

/**
 * `npm run stack`: every app as its own process, as a deployment runs them, against the local NATS,
 * PostgreSQL (the `router` database, migrated first) and S3 emulator that tools/services/ensure.sh starts.
 */
async function main(): Promise<void> {
  const ensure = spawnSync('bash', [join(REPO_ROOT, 'tools/services/ensure.sh')], { stdio: 'inherit' });
  if (ensure.status !== 0) throw new Error('the local services could not be started');
  const services = servicesEnv();
  const databaseUrl = `${services.databaseUrlBase}/router`;
  const migrate = spawnSync(process.execPath, [join(REPO_ROOT, 'dist/tools/migrate/main.js')], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: 'inherit',
  });
  if (migrate.status !== 0) throw new Error('migrations failed');
  const logDir = join(REPO_ROOT, 'tmp', 'stack', 'logs');
  const stack = await startStack({
    databaseUrl,
    natsUrl: services.natsUrl,
    s3: { ...services.s3, bucket: 'router-audio' },
    logDir,
    authCacheTtlMs: 5000,
  });
  process.stdout.write(
    [
      '',
      `gateway    ${stack.gatewayUrl}`,
      `admin API  ${stack.adminUrl}   (ADMIN_URL=${stack.adminUrl} npm run admin -- org create --name "Acme")`,
      ...Object.entries(stack.ports).map(([app, port]) => `${app.padEnd(17)} http://127.0.0.1:${port}`),
      `logs       ${logDir}`,
      'Ctrl-C stops every app.',
      '',
    ].join('\n'),
  );
  const stop = (): void => {
    void stack.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`stack: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
