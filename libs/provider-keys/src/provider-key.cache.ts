import { heldThroughOutage, RouterError } from '@router/contracts';

export interface KeyOpener {
  open(orgId: string, provider: string): Promise<string | undefined>;
}

/**
 * A process's short memory of opened vendor keys (the synthesis worker's takes, the native API's voice lists
 * and stored-settings reads), so a reply's sentences do not each read and decrypt the key. A change event
 * drops the entry at once; the TTL bounds how long a missed event could matter.
 */
export class ProviderKeyCache {
  private readonly entries = new Map<string, { key: string | undefined; at: number }>();

  constructor(
    private readonly opener: KeyOpener,
    private readonly ttlMs: number,
    private readonly now: () => number,
    /** While PostgreSQL cannot be read, a key opened no longer ago than this is still used. */
    private readonly outageStaleMs: number,
  ) {}

  async get(orgId: string, provider: string): Promise<string> {
    const id = `${orgId}:${provider}`;
    let entry = this.entries.get(id);
    if (!entry || this.now() - entry.at >= this.ttlMs) {
      const held = entry && { value: entry, at: entry.at };
      try {
        entry = { key: await this.opener.open(orgId, provider), at: this.now() };
        this.entries.set(id, entry);
      } catch (error) {
        entry = heldThroughOutage(error, held, this.now(), this.outageStaleMs);
      }
    }
    if (entry.key === undefined) {
      throw new RouterError(
        'provider_key_missing',
        `No ${provider} key is stored for this org. Add one with PUT /v1/provider-keys/${provider}.`,
      );
    }
    return entry.key;
  }

  forget(orgId: string, provider?: string): void {
    for (const id of this.entries.keys()) {
      if (id === `${orgId}:${provider ?? ''}` || (provider === undefined && id.startsWith(`${orgId}:`))) {
        this.entries.delete(id);
      }
    }
  }
}
