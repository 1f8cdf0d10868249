import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { migratePostgres } from './migrator';
import { createScratchDatabase } from './test/scratch-postgres';

// The Prisma CLI, offline, through libs/db/prisma.config.ts: the committed migrations must produce exactly
// the schema (no drift), and a database this lib migrated must look fully deployed to `prisma migrate`.
const root = join(__dirname, '..', '..', '..');
const CLI_TIMEOUT_MS = 60_000;

async function prisma(
  args: string[],
  databaseUrl: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(root, 'node_modules/prisma/build/index.js'), ...args, '--config', 'libs/db/prisma.config.ts'],
      {
        cwd: root,
        env: { ...process.env, CHECKPOINT_DISABLE: '1', DATABASE_URL: databaseUrl },
        timeout: CLI_TIMEOUT_MS,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('prisma CLI against the migrations', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;

  beforeAll(async () => {
    scratch = await createScratchDatabase();
  });
  afterAll(() => scratch?.drop());

  it(
    'finds no drift between the migrations and schema.prisma',
    async () => {
      const result = await prisma(
        [
          'migrate',
          'diff',
          '--from-migrations',
          'libs/db/prisma/migrations',
          '--to-schema-datamodel',
          'libs/db/prisma/schema.prisma',
          '--exit-code',
        ],
        scratch.url,
      );
      // --exit-code: 0 = no difference, 2 = drift (the summary on stdout says what), 1 = error.
      expect({ code: result.code, stdout: result.stdout.trim() }).toEqual({
        code: 0,
        stdout: 'No difference detected.',
      });
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'sees nothing pending after this lib migrated the database',
    async () => {
      await migratePostgres(scratch.url);
      const result = await prisma(['migrate', 'status'], scratch.url);
      expect(result.stdout).toContain('Database schema is up to date!');
      expect(result.code).toBe(0);
    },
    CLI_TIMEOUT_MS,
  );
});
