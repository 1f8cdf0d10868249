import { createDatabase, describeUrl, type Database } from '@router/db';
import { KeyRing, rotateProviderKeys } from '@router/provider-keys';

export interface Output {
  log(line: string): void;
  error(line: string): void;
}

/**
 * Re-seals every stored vendor key under the newest master key of PROVIDER_KEY_MASTER_KEYS (docs/operations.md,
 * "Rotating the master key"); prints one line and returns the exit code: 0 once no key is left under an older
 * version, 1 otherwise (a setting missing, a database that cannot be reached, a key under a version the ring
 * lacks, or keys written meanwhile under an older one).
 */
export async function runRotateKeys(env: Record<string, string | undefined>, out: Output): Promise<number> {
  const url = env['DATABASE_URL'];
  const spec = env['PROVIDER_KEY_MASTER_KEYS'];
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    out.error('rotate-keys: DATABASE_URL must be the postgresql:// URL of the router database');
    return 1;
  }
  if (!spec) {
    out.error(
      'rotate-keys: PROVIDER_KEY_MASTER_KEYS is not set; give it every version in use and the new one, e.g. "1:<old>,2:<new>"',
    );
    return 1;
  }
  let ring: KeyRing;
  try {
    ring = KeyRing.parse(spec);
  } catch (error) {
    out.error(`rotate-keys: ${(error as Error).message}`);
    return 1;
  }
  const where = describeUrl(url);
  let db: Database | undefined;
  try {
    db = await createDatabase({ url, poolSize: 2 });
    const report = await rotateProviderKeys(db.prisma, ring);
    const retired = report.retiredVersions.length > 0 ? report.retiredVersions.join(', ') : 'none';
    if (report.remaining > 0) {
      out.error(
        `rotate-keys: ${where}: re-sealed ${report.rotated} vendor keys under master key version ${report.activeVersion}, ` +
          `but ${report.remaining} were written meanwhile under an older version (a process without the new key): ` +
          'give every process the new PROVIDER_KEY_MASTER_KEYS, then run this again',
      );
      return 1;
    }
    out.log(
      `rotate-keys: ${where}: re-sealed ${report.rotated} vendor keys under master key version ${report.activeVersion}; ` +
        `none is left under an older version (found under: ${retired}), which PROVIDER_KEY_MASTER_KEYS may now drop`,
    );
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    out.error(
      `rotate-keys: ${where}: stopped: ${message}; keys already re-sealed stay readable, run it again`,
    );
    return 1;
  } finally {
    await db?.close();
  }
}
