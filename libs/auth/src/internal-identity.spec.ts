import {
  bodyMatches,
  digestBody,
  EMPTY_BODY_DIGEST,
  signIdentity,
  verifyIdentity,
} from './internal-identity';

const secret = 's'.repeat(40);
const body = Buffer.from('{"api_key":"first"}');
const claims = {
  method: 'PUT',
  path: '/v1/provider-keys/vendor_e',
  orgId: 'org-1',
  bodyDigest: digestBody(body),
};
const now = 1_800_000_000_000;
const fresh = { nowMs: now, maxAgeMs: 2000, maxFutureSkewMs: 1000 };

describe('internal identity', () => {
  it('verifies a fresh signature and yields the org and the digest of the body it was made for', () => {
    const header = signIdentity(claims, secret, now);
    const check = verifyIdentity(header, claims, secret, { ...fresh, nowMs: now + 500 });
    expect(check).toEqual({ ok: true, orgId: 'org-1', bodyDigest: digestBody(body) });
    expect(check.ok && bodyMatches(check, body)).toBe(true);
  });

  it('binds the signature to the body: a captured header does not match another body', () => {
    const check = verifyIdentity(signIdentity(claims, secret, now), claims, secret, fresh);
    expect(check.ok && bodyMatches(check, Buffer.from('{"api_key":"second"}'))).toBe(false);
    expect(check.ok && bodyMatches(check, Buffer.alloc(0))).toBe(false);
  });

  it('refuses a header whose body digest was swapped for another', () => {
    const header = signIdentity(claims, secret, now);
    const swapped = header.replace(claims.bodyDigest, digestBody(Buffer.from('{"api_key":"second"}')));
    expect(verifyIdentity(swapped, claims, secret, fresh)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('signs requests without a body with the digest of the empty body', () => {
    const header = signIdentity({ ...claims, method: 'GET', bodyDigest: EMPTY_BODY_DIGEST }, secret, now);
    const check = verifyIdentity(header, { method: 'GET', path: claims.path }, secret, fresh);
    expect(check.ok && bodyMatches(check, Buffer.alloc(0))).toBe(true);
  });

  it('refuses a stale signature replayed later', () => {
    const header = signIdentity(claims, secret, now);
    expect(verifyIdentity(header, claims, secret, { ...fresh, nowMs: now + 2001 })).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('allows a clock running ahead by the skew, and refuses a signature dated further ahead', () => {
    expect(verifyIdentity(signIdentity(claims, secret, now + 1000), claims, secret, fresh).ok).toBe(true);
    expect(verifyIdentity(signIdentity(claims, secret, now + 3000), claims, secret, fresh)).toEqual({
      ok: false,
      reason: 'from-the-future',
    });
  });

  it('refuses a signature moved to another path, method or org', () => {
    const header = signIdentity(claims, secret, now);
    expect(verifyIdentity(header, { ...claims, path: '/v1/provider-keys' }, secret, fresh).ok).toBe(false);
    expect(verifyIdentity(header, { ...claims, method: 'GET' }, secret, fresh).ok).toBe(false);
    const forgedOrg = header.replace('.org-1.', '.org-2.');
    expect(verifyIdentity(forgedOrg, claims, secret, fresh)).toEqual({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a signature made with another secret, and a missing, malformed or old-format header', () => {
    expect(verifyIdentity(signIdentity(claims, 'x'.repeat(40), now), claims, secret, fresh).ok).toBe(false);
    expect(verifyIdentity(undefined, claims, secret, fresh)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyIdentity('v1.a.b', claims, secret, fresh)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyIdentity('v1.org-1.ts.mac', claims, secret, fresh)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });
});
