import type { PrismaClient } from '@router/db';
import { type KeyFailure, KeyFailureReporter } from './key-failure';
import { KeyRing, sealContext } from './key-ring';

export interface ProviderKeyView {
  provider: string;
  last4: string;
  updated_at: string;
}

/** How often a key's last error from real traffic is written at most (per worker). */
const KEY_FAILURE_WRITE_INTERVAL_MS = 60_000;

/**
 * What a key's `last4` shows: its last four characters, but never more than half of the key (rounded down),
 * so that a short key is not given away whole. A migration applied the same rule to rows stored before it.
 */
export function shownTail(apiKey: string): string {
  const shown = Math.min(4, Math.floor(apiKey.length / 2));
  return apiKey.slice(apiKey.length - shown);
}

/**
 * The org's vendor keys at rest: sealed on write, opened only for a vendor call, and described to the
 * org by their last characters (`shownTail`). The plain key leaves this class only through `open`.
 */
export class ProviderKeyStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly ring: KeyRing,
  ) {}

  async list(orgId: string): Promise<ProviderKeyView[]> {
    const rows = await this.prisma.providerKey.findMany({
      where: { orgId },
      orderBy: { provider: 'asc' },
      select: { provider: true, last4: true, updatedAt: true },
    });
    return rows.map(toView);
  }

  async put(orgId: string, provider: string, apiKey: string): Promise<ProviderKeyView> {
    const sealed = this.ring.seal(apiKey, sealContext(orgId, provider));
    // Prisma's Bytes are Uint8Arrays over plain ArrayBuffers; Node's Buffers may sit on a shared pool.
    const data = {
      ciphertext: new Uint8Array(sealed.ciphertext),
      nonce: new Uint8Array(sealed.nonce),
      authTag: new Uint8Array(sealed.authTag),
      keyVersion: sealed.keyVersion,
      last4: shownTail(apiKey),
      // A new key has not been tested, and the old key's error is not its.
      checkedAt: null,
      lastErrorCode: null,
      lastErrorMessage: null,
      lastErrorAt: null,
    };
    const row = await this.prisma.providerKey.upsert({
      where: { orgId_provider: { orgId, provider } },
      create: { orgId, provider, ...data },
      update: data,
      select: { provider: true, last4: true, updatedAt: true },
    });
    return toView(row);
  }

  /** True when a key was deleted, false when there was none. */
  async delete(orgId: string, provider: string): Promise<boolean> {
    const { count } = await this.prisma.providerKey.deleteMany({ where: { orgId, provider } });
    return count > 0;
  }

  /**
   * A test of the stored key: when, and its failure in the router's words (null when it passed, which clears the
   * last error). Raw SQL, so `updated_at` keeps saying when the key itself was stored. False when no key is
   * stored (deleted meanwhile).
   */
  async recordCheck(orgId: string, provider: string, failure: KeyFailure | null): Promise<boolean> {
    const count = failure
      ? await this.prisma.$executeRaw`
          UPDATE provider_keys SET checked_at = now(), last_error_code = ${failure.code},
            last_error_message = ${failure.message}, last_error_at = now()
          WHERE org_id = ${orgId}::uuid AND provider = ${provider}`
      : await this.prisma.$executeRaw`
          UPDATE provider_keys SET checked_at = now(), last_error_code = NULL, last_error_message = NULL,
            last_error_at = NULL
          WHERE org_id = ${orgId}::uuid AND provider = ${provider}`;
    return count > 0;
  }

  /**
   * A vendor call of real traffic failed with the stored key: its failure becomes the key's last error, and
   * `checked_at` keeps saying when the key was last tested. Nothing when no key is stored.
   */
  async recordFailure(orgId: string, provider: string, failure: KeyFailure): Promise<void> {
    await this.prisma.$executeRaw`
      UPDATE provider_keys SET last_error_code = ${failure.code}, last_error_message = ${failure.message},
        last_error_at = now()
      WHERE org_id = ${orgId}::uuid AND provider = ${provider}`;
  }

  /** The reporter a worker gives the vendor's failures of real traffic: at most one write a minute per key. */
  failureReporter(onWriteError: (error: unknown) => void): KeyFailureReporter {
    return new KeyFailureReporter(
      (orgId, provider, failure) => this.recordFailure(orgId, provider, failure),
      KEY_FAILURE_WRITE_INTERVAL_MS,
      onWriteError,
    );
  }

  /** The plain vendor key, for the vendor call only; undefined when the org stored none. */
  async open(orgId: string, provider: string): Promise<string | undefined> {
    const row = await this.prisma.providerKey.findUnique({
      where: { orgId_provider: { orgId, provider } },
      select: { ciphertext: true, nonce: true, authTag: true, keyVersion: true },
    });
    if (!row) return undefined;
    return this.ring.open(
      {
        ciphertext: Buffer.from(row.ciphertext),
        nonce: Buffer.from(row.nonce),
        authTag: Buffer.from(row.authTag),
        keyVersion: row.keyVersion,
      },
      sealContext(orgId, provider),
    );
  }
}

function toView(row: { provider: string; last4: string; updatedAt: Date }): ProviderKeyView {
  return { provider: row.provider, last4: row.last4, updated_at: row.updatedAt.toISOString() };
}
