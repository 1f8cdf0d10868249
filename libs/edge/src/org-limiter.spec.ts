import { OrgLimiter, type LimitVerdict } from './org-limiter';

function admitted(verdict: LimitVerdict): () => void {
  if (!verdict.ok) throw new Error(`refused: ${verdict.limit}`);
  return verdict.release;
}

describe('OrgLimiter', () => {
  let clock = 0;
  const now = (): number => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('holds an org to its concurrent syntheses until one is released, and counts GETs against none', () => {
    const limiter = new OrgLimiter({ concurrentSyntheses: 2, openSockets: 0, requestsPerSecond: 0 }, now);
    const first = admitted(limiter.admit('org-1', undefined, 'synthesis'));
    admitted(limiter.admit('org-1', undefined, 'synthesis'));
    const third = limiter.admit('org-1', undefined, 'synthesis');
    expect(third).toMatchObject({ ok: false, limit: 'concurrentSyntheses', retryAfterS: 1 });
    expect(third.ok || third.error.code).toBe('rate_limited');
    expect(third.ok || third.error.status).toBe(429);
    // Plain requests hold nothing, and another org has its own count.
    admitted(limiter.admit('org-1', undefined, 'request'));
    admitted(limiter.admit('org-2', undefined, 'synthesis'));
    first();
    first(); // a second release frees nothing more
    expect(limiter.held('org-1')).toEqual({ syntheses: 1, sockets: 0 });
    admitted(limiter.admit('org-1', undefined, 'synthesis'));
    expect(limiter.admit('org-1', undefined, 'synthesis').ok).toBe(false);
  });

  it('holds open sockets apart from syntheses', () => {
    const limiter = new OrgLimiter({ concurrentSyntheses: 1, openSockets: 1, requestsPerSecond: 0 }, now);
    const socket = admitted(limiter.admit('org-1', undefined, 'socket'));
    admitted(limiter.admit('org-1', undefined, 'synthesis'));
    expect(limiter.admit('org-1', undefined, 'socket')).toMatchObject({ ok: false, limit: 'openSockets' });
    socket();
    admitted(limiter.admit('org-1', undefined, 'socket'));
  });

  it("gives a burst of one second's requests, then one per 1/rate, and says when to retry", () => {
    const limiter = new OrgLimiter({ concurrentSyntheses: 0, openSockets: 0, requestsPerSecond: 4 }, now);
    for (let i = 0; i < 4; i += 1) admitted(limiter.admit('org-1', undefined, 'request'));
    expect(limiter.admit('org-1', undefined, 'request')).toMatchObject({
      ok: false,
      limit: 'requestsPerSecond',
      retryAfterS: 1,
    });
    clock += 250; // one request's worth
    admitted(limiter.admit('org-1', undefined, 'request'));
    expect(limiter.admit('org-1', undefined, 'request').ok).toBe(false);
    clock += 10_000; // a long pause refills no more than the burst
    for (let i = 0; i < 4; i += 1) admitted(limiter.admit('org-1', undefined, 'request'));
    expect(limiter.admit('org-1', undefined, 'request').ok).toBe(false);
  });

  it('tells a client of a slow rate to wait the seconds a token takes', () => {
    const limiter = new OrgLimiter({ concurrentSyntheses: 0, openSockets: 0, requestsPerSecond: 100 }, now);
    const slow = { requestsPerSecond: 1 };
    admitted(limiter.admit('org-1', slow, 'request'));
    clock += 100;
    expect(limiter.admit('org-1', slow, 'request')).toMatchObject({ ok: false, retryAfterS: 1 });
  });

  it("takes an org's own limits over the defaults, limit by limit; 0 is no limit", () => {
    const limiter = new OrgLimiter({ concurrentSyntheses: 1, openSockets: 1, requestsPerSecond: 1 }, now);
    const own = { concurrentSyntheses: 3, requestsPerSecond: 0 };
    for (let i = 0; i < 3; i += 1) admitted(limiter.admit('org-1', own, 'synthesis'));
    expect(limiter.admit('org-1', own, 'synthesis')).toMatchObject({
      ok: false,
      limit: 'concurrentSyntheses',
    });
    admitted(limiter.admit('org-1', own, 'socket'));
    // The default socket limit still holds for this org.
    expect(limiter.admit('org-1', own, 'socket')).toMatchObject({ ok: false, limit: 'openSockets' });
  });

  it('counts a request refused for a held limit against no rate', () => {
    const limiter = new OrgLimiter({ concurrentSyntheses: 1, openSockets: 0, requestsPerSecond: 2 }, now);
    admitted(limiter.admit('org-1', undefined, 'synthesis'));
    for (let i = 0; i < 3; i += 1) {
      expect(limiter.admit('org-1', undefined, 'synthesis')).toMatchObject({ limit: 'concurrentSyntheses' });
    }
    admitted(limiter.admit('org-1', undefined, 'request'));
  });
});
