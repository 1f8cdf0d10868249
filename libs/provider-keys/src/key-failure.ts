import type { RouterError } from '@router/contracts';

/** A key's failure as its row keeps it: the router's code and the failure in words. */
export interface KeyFailure {
  code: string;
  message: string;
}

/**
 * A vendor call made with an org's key that failed, said in words a member reads: what went wrong and what to
 * do, never the vendor's own text. Shared by "test this key" and the failures of real traffic.
 */
export function keyFailureInWords(provider: string, error: RouterError): string {
  switch (error.code) {
    case 'provider_key_missing':
      return `No key is stored for ${provider}: store one first.`;
    case 'provider_rejected':
      return error.providerStatus === 401 || error.providerStatus === 403
        ? `${provider} refused the key (HTTP ${error.providerStatus}): check that it was copied whole and that ` +
            'it is still active in your account there.'
        : `${provider} refused the call (HTTP ${error.providerStatus ?? 'unknown'}). The key may be fine; ` +
            'check your account there (its plan, quota or limits).';
    case 'provider_rate_limited':
      return `${provider} is rate-limiting this key right now: try again in a minute.`;
    case 'provider_timeout':
      return `${provider} did not answer in time: try again later.`;
    case 'provider_unavailable':
      return `${provider} could not be reached or failed: try again later.`;
    default:
      return `The call could not be completed (${error.code}): try again later.`;
  }
}

/** The vendor's failures, which say something of the key or its vendor (the router's own never do). */
const VENDOR_FAILURES: ReadonlySet<string> = new Set([
  'provider_rejected',
  'provider_rate_limited',
  'provider_timeout',
  'provider_unavailable',
]);

/** Keys whose last write is remembered at most; past it the memory starts again (a burst writes once more). */
const TRACKED_KEYS = 10_000;

/**
 * The last error of each org's vendor key, from real traffic: a worker reports every vendor call that failed,
 * and at most one report a key per `minIntervalMs` is written (a vendor down under load fails every call; the
 * row says the latest kind of failure and when, not each one). Fire and forget: a database that fails or hangs
 * loses the report, never the reply. A passing "test this key" clears the error; a key stored anew starts
 * without one.
 */
export class KeyFailureReporter {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly write: (orgId: string, provider: string, failure: KeyFailure) => Promise<unknown>,
    private readonly minIntervalMs: number,
    private readonly onWriteError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  report(orgId: string, provider: string, error: RouterError): void {
    if (!VENDOR_FAILURES.has(error.code)) return;
    const id = `${orgId}\n${provider}`;
    const at = this.now();
    const last = this.written.get(id);
    if (last !== undefined && at - last < this.minIntervalMs) return;
    if (this.written.size >= TRACKED_KEYS) this.written.clear();
    this.written.set(id, at);
    this.write(orgId, provider, { code: error.code, message: keyFailureInWords(provider, error) }).catch(
      this.onWriteError,
    );
  }
}
