import { signIdentity, verifyIdentity } from './internal-identity';

const secret = 's'.repeat(40);
const claims = { method: 'POST', path: '/v1/audio/speech', orgId: 'org-1' };
const now = 1_800_000_000_000;

describe('internal identity', () => {
  it('verifies a fresh signature and yields the org', () => {
    const header = signIdentity(claims, secret, now);
    expect(verifyIdentity(header, claims, secret, { nowMs: now + 500, maxAgeMs: 5000 })).toEqual({
      ok: true,
      orgId: 'org-1',
    });
  });

  it('refuses a stale signature replayed later', () => {
    const header = signIdentity(claims, secret, now);
    expect(verifyIdentity(header, claims, secret, { nowMs: now + 5001, maxAgeMs: 5000 })).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses a signature moved to another path, method or org', () => {
    const header = signIdentity(claims, secret, now);
    const opts = { nowMs: now, maxAgeMs: 5000 };
    expect(verifyIdentity(header, { ...claims, path: '/v1/provider-keys' }, secret, opts).ok).toBe(false);
    expect(verifyIdentity(header, { ...claims, method: 'GET' }, secret, opts).ok).toBe(false);
    const forgedOrg = header.replace('.org-1.', '.org-2.');
    expect(verifyIdentity(forgedOrg, claims, secret, opts)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a signature made with another secret, and a missing or malformed header', () => {
    const opts = { nowMs: now, maxAgeMs: 5000 };
    expect(verifyIdentity(signIdentity(claims, 'x'.repeat(40), now), claims, secret, opts).ok).toBe(false);
    expect(verifyIdentity(undefined, claims, secret, opts)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyIdentity('v1.a.b', claims, secret, opts)).toEqual({ ok: false, reason: 'malformed' });
  });
});
