import { createDatabase, describeUrl, type Database } from '@router/db';

export interface Output {
  log(line: string): void;
  error(line: string): void;
}

function reason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    // Node reports a refused connection to every address of a host name as one AggregateError without a message.
    return error.errors.map(reason).join('; ');
  }
  if (error instanceof Error) return error.message || String((error as Error & { code?: unknown }).code);
  return String(error);
}

/** Migrates the database at env.DATABASE_URL; prints one line and returns the exit code. */
export async function runMigrate(env: Record<string, string | undefined>, out: Output): Promise<number> {
  const url = env['DATABASE_URL'];
  if (!url) {
    out.error('migrate: DATABASE_URL is not set; give it the postgresql:// URL of the database to migrate');
    return 1;
  }
  if (!/^postgres(ql)?:\/\//.test(url)) {
    out.error('migrate: DATABASE_URL must be a postgresql:// URL');
    return 1;
  }
  const where = describeUrl(url);
  let db: Database | undefined;
  try {
    db = await createDatabase({ url, poolSize: 1 });
    const { applied, total } = await db.migrate();
    const detail = applied.length > 0 ? `applied ${applied.join(', ')}` : 'nothing to apply';
    out.log(`migrate: ${where}: ${detail} (${total} migrations, all applied)`);
    return 0;
  } catch (error) {
    out.error(`migrate: could not migrate the database at DATABASE_URL (${where}): ${reason(error)}`);
    return 1;
  } finally {
    await db?.close();
  }
}
