import type { PrismaClient } from '@router/db';
import { type KeyRing, sealContext } from './key-ring';

export interface RotationReport {
  /** The master key version every key is sealed under once the rotation ends. */
  activeVersion: number;
  /** Keys sealed anew under it by this run. */
  rotated: number;
  /** The older versions keys were found under (none is needed once `remaining` is 0). */
  retiredVersions: number[];
  /**
   * Keys still sealed under an older version when the run ended: written meanwhile by a process that does not
   * yet know the new master key. Run the command again once every process has the new ring.
   */
  remaining: number;
}

/**
 * Re-seals every stored vendor key that is not under the ring's active (highest) master key version with it, a
 * page at a time. The ring holds the old versions too, so every key stays readable throughout: a process with
 * the same ring opens a row whichever side of its re-seal it is read. A row is rewritten only if it is still the
 * one read (same version and nonce): a key the org replaced meanwhile is left as written. Plain keys exist here
 * only in memory, between open and seal; nothing is logged.
 */
export async function rotateProviderKeys(
  prisma: PrismaClient,
  ring: KeyRing,
  options: {
    pageSize?: number;
    /** Called after each page with the keys re-sealed so far (the keys' readers run meanwhile). */
    afterPage?: (rotated: number) => Promise<void>;
  } = {},
): Promise<RotationReport> {
  const activeVersion = ring.activeVersion;
  const pageSize = options.pageSize ?? 200;
  const retired = new Set<number>();
  let rotated = 0;
  let after: string | undefined;
  for (;;) {
    const rows = await prisma.providerKey.findMany({
      where: { keyVersion: { not: activeVersion }, ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: 'asc' },
      take: pageSize,
      select: {
        id: true,
        orgId: true,
        provider: true,
        ciphertext: true,
        nonce: true,
        authTag: true,
        keyVersion: true,
      },
    });
    if (rows.length === 0) break;
    for (const row of rows) {
      retired.add(row.keyVersion);
      const context = sealContext(row.orgId, row.provider);
      const plain = ring.open(
        {
          ciphertext: Buffer.from(row.ciphertext),
          nonce: Buffer.from(row.nonce),
          authTag: Buffer.from(row.authTag),
          keyVersion: row.keyVersion,
        },
        context,
      );
      const sealed = ring.seal(plain, context);
      const { count } = await prisma.providerKey.updateMany({
        where: { id: row.id, keyVersion: row.keyVersion, nonce: { equals: row.nonce } },
        data: {
          ciphertext: new Uint8Array(sealed.ciphertext),
          nonce: new Uint8Array(sealed.nonce),
          authTag: new Uint8Array(sealed.authTag),
          keyVersion: sealed.keyVersion,
        },
      });
      rotated += count;
    }
    after = rows.at(-1)?.id;
    await options.afterPage?.(rotated);
  }
  const remaining = await prisma.providerKey.count({ where: { keyVersion: { not: activeVersion } } });
  return { activeVersion, rotated, retiredVersions: [...retired].sort((a, b) => a - b), remaining };
}
