import { RouterError } from '@router/contracts';

export interface SignInLimits {
  /** Sign-in attempts for one email address within a window. */
  perAddress: number;
  /** Sign-in attempts from one client address (as the gateway saw it) within a window. */
  perClient: number;
  windowMs: number;
}

export function signInLimits(config: {
  SIGN_IN_LIMIT_PER_ADDRESS: number;
  SIGN_IN_LIMIT_PER_CLIENT: number;
  SIGN_IN_LIMIT_WINDOW_MS: number;
}): SignInLimits {
  return {
    perAddress: config.SIGN_IN_LIMIT_PER_ADDRESS,
    perClient: config.SIGN_IN_LIMIT_PER_CLIENT,
    windowMs: config.SIGN_IN_LIMIT_WINDOW_MS,
  };
}

/** How many addresses and clients each window remembers; past it the oldest is forgotten first. */
const MAX_ENTRIES = 50_000;

/**
 * Fixed windows of attempts per name, in memory (each dashboard replica counts its own), bounded in size.
 * Every attempt counts when it starts, so a burst sent at once is cut at the limit like a slow one.
 */
export class AttemptCounter {
  /** Insertion order is expiry order: every entry's window starts when it is (re)inserted. */
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  /** Counts an attempt; undefined when it is allowed, else the seconds until the window ends. */
  attempt(name: string): number | undefined {
    const now = this.now();
    let entry = this.windows.get(name);
    if (entry && entry.endsAt <= now) {
      this.windows.delete(name);
      entry = undefined;
    }
    if (!entry) {
      this.makeRoom(now);
      entry = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(name, entry);
    }
    if (entry.count >= this.limit) return Math.max(1, Math.ceil((entry.endsAt - now) / 1000));
    entry.count += 1;
    return undefined;
  }

  forget(name: string): void {
    this.windows.delete(name);
  }

  private makeRoom(now: number): void {
    for (const [name, entry] of this.windows) {
      if (entry.endsAt > now && this.windows.size < this.maxEntries) return;
      this.windows.delete(name);
    }
  }
}

/** The two limits of a sign-in: per email address and per client address. */
export class SignInLimiter {
  private readonly addresses: AttemptCounter;
  private readonly clients: AttemptCounter;

  constructor(limits: SignInLimits, now: () => number = Date.now) {
    this.addresses = new AttemptCounter(limits.perAddress, limits.windowMs, now);
    this.clients = new AttemptCounter(limits.perClient, limits.windowMs, now);
  }

  /**
   * Counts one sign-in attempt; throws `rate_limited` (429) with the seconds to wait when either limit is
   * reached, until the window that reached it ends (whatever is tried meanwhile).
   */
  admit(address: string, client: string): void {
    const wait = this.clients.attempt(client) ?? this.addresses.attempt(address);
    if (wait !== undefined) throw new SignInRefused(wait);
  }

  /** A successful sign-in clears its address's count (its client's stays). */
  succeeded(address: string): void {
    this.addresses.forget(address);
  }
}

/** The 429 of a sign-in over its limit, with the seconds to put in `Retry-After`. */
export class SignInRefused extends RouterError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', `Too many sign-in attempts: try again in ${describeWait(retryAfterSeconds)}.`);
  }
}

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
