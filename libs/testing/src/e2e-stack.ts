import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './processes';
import { createScratchDatabase, migrateScratchDatabase, servicesEnv } from './services';
import { type StackInfo, startStack } from './stack';

/**
 * Which e2e stack a Jest run uses: `npm test` runs the e2e specs in shards, each Jest with a stack of its own
 * (`E2E_SHARD=1` …); a run without it has the one stack.
 */
const SHARD = process.env['E2E_SHARD'] ? `-${process.env['E2E_SHARD']}` : '';
const STATE_FILE = join(REPO_ROOT, 'tmp', 'e2e', `stack${SHARD}.json`);

/**
 * For the e2e run: a fresh database migrated with the migrate command, the apps as separate processes
 * against it, NATS and the S3 emulator; the tests read where everything is from a state file.
 */
export async function startE2eStack(): Promise<{ stop(): Promise<void> }> {
  const services = servicesEnv();
  const db = await createScratchDatabase('e2e');
  await migrateScratchDatabase(db);
  const logDir = join(REPO_ROOT, 'tmp', 'e2e', `logs${SHARD}`);
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const stack = await startStack({
    databaseUrl: db.url,
    natsUrl: services.natsUrl,
    s3: { ...services.s3, bucket: `router-e2e-${db.name.slice(-8)}` },
    logDir,
  });
  const info: StackInfo = {
    gatewayUrl: stack.gatewayUrl,
    gatewayInternalUrl: stack.gatewayInternalUrl,
    gatewayTlsUrl: stack.gatewayTlsUrl,
    tlsCertFile: stack.tlsCertFile,
    adminUrl: stack.adminUrl,
    nativeApiUrl: stack.nativeApiUrl,
    simUrl: stack.simUrl,
    ports: stack.ports,
    logDir: stack.logDir,
    databaseUrl: stack.databaseUrl,
    env: stack.env,
  };
  writeFileSync(STATE_FILE, JSON.stringify(info, null, 2));
  return {
    async stop() {
      await stack.stop();
      await db.drop();
    },
  };
}

/** Where the e2e stack is, for a test file. */
export function readE2eStack(): StackInfo {
  return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as StackInfo;
}
