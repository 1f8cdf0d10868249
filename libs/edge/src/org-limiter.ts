import { limitMessage, RouterError } from '@router/contracts';

/**
 * An org's limits as one gateway replica keeps them; 0 is no limit. `concurrentSyntheses`: requests in flight
 * that may synthesize (every method but GET and HEAD); `openSockets`: WebSockets open; `requestsPerSecond`:
 * requests and handshakes, with a burst of one second's worth.
 */
export interface OrgLimits {
  concurrentSyntheses: number;
  openSockets: number;
  requestsPerSecond: number;
}

/** What an org's record sets of its own; a limit left out is the configured default. */
export type OrgLimitOverrides = Partial<OrgLimits>;

/** What a use of the router counts against: every use counts a request; a synthesis or a socket also holds one. */
export type LimitedUse = 'request' | 'synthesis' | 'socket';

export type LimitVerdict =
  | { ok: true; release: () => void }
  | { ok: false; limit: keyof OrgLimits; retryAfterS: number; error: RouterError };

/** Past a limit that frees as uses end (a synthesis, a socket), the client is told to retry after this. */
const HELD_RETRY_AFTER_S = 1;

/** Past this many orgs remembered, idle ones (nothing held, bucket full) are forgotten. */
const SWEEP_ABOVE = 10_000;

interface OrgUse {
  tokens: number;
  refilledAt: number;
  syntheses: number;
  sockets: number;
}

const NOTHING_HELD = (): void => undefined;

/**
 * Per-org limits kept in this process's memory: a token bucket per org for requests per second and two
 * counters for what it holds open. Each check is a map lookup and a few comparisons, so it costs nothing on
 * the hot path; it is per replica (docs/operations.md, "Per-org limits": with N gateways an org may reach N
 * times each limit).
 */
export class OrgLimiter {
  private readonly orgs = new Map<string, OrgUse>();

  constructor(
    private readonly defaults: OrgLimits,
    private readonly now: () => number,
  ) {}

  /**
   * Admits one use by `orgId` or says which limit it is past. A synthesis or socket admitted holds its place
   * until `release` is called (once; later calls do nothing).
   */
  admit(orgId: string, overrides: OrgLimitOverrides | undefined, use: LimitedUse): LimitVerdict {
    const limits = { ...this.defaults, ...overrides };
    const org = this.use(orgId, limits.requestsPerSecond);
    if (
      use === 'synthesis' &&
      limits.concurrentSyntheses > 0 &&
      org.syntheses >= limits.concurrentSyntheses
    ) {
      return refused('concurrentSyntheses', limits.concurrentSyntheses, HELD_RETRY_AFTER_S);
    }
    if (use === 'socket' && limits.openSockets > 0 && org.sockets >= limits.openSockets) {
      return refused('openSockets', limits.openSockets, HELD_RETRY_AFTER_S);
    }
    if (limits.requestsPerSecond > 0) {
      this.refill(org, limits.requestsPerSecond);
      if (org.tokens < 1) {
        const retryAfterS = Math.max(1, Math.ceil((1 - org.tokens) / limits.requestsPerSecond));
        return refused('requestsPerSecond', limits.requestsPerSecond, retryAfterS);
      }
      org.tokens -= 1;
    }
    if (use === 'request') return { ok: true, release: NOTHING_HELD };
    const field = use === 'synthesis' ? 'syntheses' : 'sockets';
    org[field] += 1;
    let held = true;
    return {
      ok: true,
      release: () => {
        if (!held) return;
        held = false;
        org[field] -= 1;
      },
    };
  }

  /** What `orgId` holds now (for tests and metrics). */
  held(orgId: string): { syntheses: number; sockets: number } {
    const org = this.orgs.get(orgId);
    return { syntheses: org?.syntheses ?? 0, sockets: org?.sockets ?? 0 };
  }

  private use(orgId: string, requestsPerSecond: number): OrgUse {
    let org = this.orgs.get(orgId);
    if (!org) {
      if (this.orgs.size >= SWEEP_ABOVE) this.sweep();
      org = { tokens: requestsPerSecond, refilledAt: this.now(), syntheses: 0, sockets: 0 };
      this.orgs.set(orgId, org);
    }
    return org;
  }

  private refill(org: OrgUse, perSecond: number): void {
    const now = this.now();
    org.tokens = Math.min(perSecond, org.tokens + ((now - org.refilledAt) * perSecond) / 1000);
    org.refilledAt = now;
  }

  /** Forgets the orgs that hold nothing and whose bucket would be full again (they start afresh alike). */
  private sweep(): void {
    const now = this.now();
    for (const [orgId, org] of this.orgs) {
      if (org.syntheses === 0 && org.sockets === 0 && now - org.refilledAt >= 1000) this.orgs.delete(orgId);
    }
  }
}

function refused(limit: keyof OrgLimits, value: number, retryAfterS: number): LimitVerdict {
  const error = new RouterError('rate_limited', limitMessage(limit, value));
  return { ok: false, limit, retryAfterS, error };
}
