import type { RequestKey } from '@router/dashboard-types';
import type { PrismaClient } from '@router/db';

/** The org's API keys (revoked ones too) by the hash the request log holds, and each key's hash by its id. */
export interface KeyNames {
  byHash(hash: string): RequestKey | null;
  /** Undefined for an id that is not one of the org's keys. */
  hashOf(id: string): string | undefined;
}

export async function keyNamesOf(prisma: PrismaClient, orgId: string): Promise<KeyNames> {
  const keys = await prisma.apiKey.findMany({
    where: { orgId },
    select: { id: true, prefix: true, name: true, keyHash: true },
  });
  const byHash = new Map(keys.map((k) => [k.keyHash, { id: k.id, prefix: k.prefix, name: k.name }]));
  const byId = new Map(keys.map((k) => [k.id, k.keyHash]));
  return { byHash: (hash) => byHash.get(hash) ?? null, hashOf: (id) => byId.get(id) };
}
