import { randomBytes, randomUUID } from 'node:crypto';
import { Prisma, type PrismaClient } from '@prisma/client';
import type { Sql } from '../sql';

/** Writes and reads back one row of every model; returns what was read so callers can compare. */
export async function roundTripEveryModel(prisma: PrismaClient) {
  const org = await prisma.org.create({ data: { name: 'org one', retentionDays: 30 } });
  const apiKey = await prisma.apiKey.create({
    data: { orgId: org.id, prefix: 'rk_live_ab', keyHash: randomBytes(32).toString('hex') },
  });
  const secret = { ciphertext: randomBytes(45), nonce: randomBytes(12), authTag: randomBytes(16) };
  await prisma.providerKey.create({
    data: { orgId: org.id, provider: 'vendor_a', ...secret, keyVersion: 2, last4: 'wxyz' },
  });
  await prisma.cacheEntry.create({
    data: {
      orgId: org.id,
      cacheKey: 'k'.repeat(64),
      provider: 'vendor_b',
      objectName: 'o/1',
      contentType: 'audio/mpeg',
      byteSize: 1234,
      hasTimings: true,
    },
  });
  const day = new Date('2026-03-04T00:00:00.000Z');
  await prisma.usageCounter.create({
    data: { orgId: org.id, day, provider: 'vendor_c', synthesizedChars: 9_007_199_254_740_993n },
  });
  await prisma.usageCounter.update({
    where: { orgId_day_provider: { orgId: org.id, day, provider: 'vendor_c' } },
    data: { servedFromCacheChars: { increment: 5 } },
  });

  const read = await prisma.org.findUniqueOrThrow({
    where: { id: org.id },
    include: { apiKeys: true, providerKeys: true, cacheEntries: true, usage: true },
  });
  return { org, apiKey, secret, day, read };
}

export async function expectRoundTrip(prisma: PrismaClient): Promise<void> {
  const { org, apiKey, secret, day, read } = await roundTripEveryModel(prisma);
  expect(read).toMatchObject({
    name: 'org one',
    retentionDays: 30,
    disabled: false,
    creditState: 'in_credit',
  });
  expect(read.createdAt.getTime()).toBe(org.createdAt.getTime());
  expect(Math.abs(read.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  expect(read.apiKeys).toEqual([apiKey]);
  const [providerKey] = read.providerKeys;
  expect(Buffer.from(providerKey.ciphertext).equals(secret.ciphertext)).toBe(true);
  expect(Buffer.from(providerKey.nonce).equals(secret.nonce)).toBe(true);
  expect(Buffer.from(providerKey.authTag).equals(secret.authTag)).toBe(true);
  expect(providerKey).toMatchObject({ provider: 'vendor_a', keyVersion: 2, last4: 'wxyz' });
  expect(read.cacheEntries[0]).toMatchObject({ provider: 'vendor_b', byteSize: 1234, hasTimings: true });
  expect(read.usage).toEqual([
    {
      orgId: org.id,
      day,
      provider: 'vendor_c',
      synthesizedChars: 9_007_199_254_740_993n,
      servedFromCacheChars: 5n,
      synthesizedTakes: 0n,
      servedFromCacheTakes: 0n,
    },
  ]);
}

/** A second key with the same hash must surface as Prisma's P2002 naming the column. */
export async function expectUniqueViolation(prisma: PrismaClient): Promise<void> {
  const org = await prisma.org.create({ data: { name: 'org two' } });
  const keyHash = randomBytes(32).toString('hex');
  await prisma.apiKey.create({ data: { orgId: org.id, prefix: 'rk_a', keyHash } });
  const error: unknown = await prisma.apiKey
    .create({ data: { orgId: org.id, prefix: 'rk_b', keyHash } })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
  expect((error as Prisma.PrismaClientKnownRequestError).code).toBe('P2002');
  const meta = (error as Prisma.PrismaClientKnownRequestError).meta as {
    driverAdapterError?: { cause?: { constraint?: unknown } };
  };
  expect(meta.driverAdapterError?.cause?.constraint).toEqual({ fields: ['key_hash'] });
}

/** A key for an org that does not exist must surface as P2003. */
export async function expectForeignKeyViolation(prisma: PrismaClient): Promise<void> {
  const error: unknown = await prisma.apiKey
    .create({ data: { orgId: '00000000-0000-4000-8000-000000000000', prefix: 'rk_c', keyHash: 'x' } })
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect((error as Prisma.PrismaClientKnownRequestError).code).toBe('P2003');
}

/** The CHECK constraint from the migration: 0 and 1..3650 pass, anything else is refused by the database. */
export async function expectRetentionCheck(prisma: PrismaClient): Promise<void> {
  for (const retentionDays of [0, 1, 3650]) {
    await expect(
      prisma.org.create({ data: { name: `r${retentionDays}`, retentionDays } }),
    ).resolves.toBeTruthy();
  }
  for (const retentionDays of [-1, 3651]) {
    await expect(prisma.org.create({ data: { name: `r${retentionDays}`, retentionDays } })).rejects.toThrow(
      /orgs_retention_days_check/,
    );
  }
}

/** `db.sql` reads what Prisma wrote, with the same value types on both drivers, and passes parameters. */
export async function expectPlainSql(db: { prisma: PrismaClient; sql: Sql }): Promise<void> {
  const org = await db.prisma.org.create({ data: { name: 'plain sql', retentionDays: 7 } });
  const at = new Date('2026-05-06T07:08:09.000Z');
  await db.prisma.cacheEntry.create({
    data: {
      orgId: org.id,
      cacheKey: 'p'.repeat(64),
      provider: 'vendor_a',
      objectName: 'o/plain',
      contentType: 'audio/pcm',
      byteSize: 4321,
      hasTimings: false,
      lastUsedAt: at,
    },
  });
  const rows = await db.sql.query<Record<string, unknown>>(
    `SELECT o.id AS "orgId", o.retention_days AS "retentionDays", e.byte_size AS "byteSize",
       e.has_timings AS "hasTimings", e.last_used_at AS "lastUsedAt"
     FROM cache_entries e JOIN orgs o ON o.id = e.org_id WHERE e.org_id = $1::uuid AND e.cache_key = $2`,
    [org.id, 'p'.repeat(64)],
  );
  expect(rows).toEqual([
    { orgId: org.id, retentionDays: 7, byteSize: 4321, hasTimings: false, lastUsedAt: at },
  ]);
  await expect(db.sql.query('SELECT 1 FROM orgs WHERE id = $1::uuid', [randomUUID()])).resolves.toEqual([]);
}
