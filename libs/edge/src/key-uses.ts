import type { PrismaClient } from '@router/db';
import type { Logger } from '@router/observability';

export interface KeyUse {
  keyHash: string;
  at: number;
}

/**
 * When each API key was last used (the dashboard shows it), kept in memory per key hash and written in one
 * statement every interval: an admitted request never waits for a database write. A flush that fails keeps
 * its uses for the next one; at most one use per key is held, so memory follows the keys in use.
 */
export class KeyUseRecorder {
  private uses = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly write: (uses: KeyUse[]) => Promise<unknown>,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  record(keyHash: string): void {
    this.uses.set(keyHash, this.now());
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  /** Writes the uses recorded so far; flushes run one after another. */
  flush(): Promise<void> {
    const run = this.chain.then(() => this.flushOnce());
    this.chain = run.catch(() => undefined);
    return run;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }

  private async flushOnce(): Promise<void> {
    if (this.uses.size === 0) return;
    const batch = [...this.uses].map(([keyHash, at]) => ({ keyHash, at }));
    this.uses = new Map();
    try {
      await this.write(batch);
    } catch (error) {
      for (const { keyHash, at } of batch) {
        if ((this.uses.get(keyHash) ?? 0) < at) this.uses.set(keyHash, at);
      }
      this.logger.warn(
        { err: error, keys: batch.length },
        'API key last use not written; kept for the next flush',
      );
      throw error;
    }
  }
}

/** The recorder's write: one statement for the whole batch; GREATEST so a late flush never moves a use back. */
export function writeKeyUses(prisma: PrismaClient): (uses: KeyUse[]) => Promise<number> {
  return (uses) => prisma.$executeRaw`
    UPDATE api_keys AS k
    SET last_used_at = GREATEST(COALESCE(k.last_used_at, u.used_at), u.used_at)
    FROM unnest(
      ${uses.map((u) => u.keyHash)}::text[],
      ${uses.map((u) => new Date(u.at).toISOString())}::timestamptz[]
    ) AS u(key_hash, used_at)
    WHERE k.key_hash = u.key_hash`;
}
