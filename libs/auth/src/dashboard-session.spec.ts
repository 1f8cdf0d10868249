import {
  csrfTokenFor,
  csrfTokenMatches,
  hasSessionCookie,
  hashSecret,
  newSessionToken,
  newSignInCode,
  normalizeSignInCode,
  readSessionCookie,
  sessionCookie,
} from './dashboard-session';

describe('dashboard sessions', () => {
  it('issues codes of 15 base32 characters in three groups, each new', () => {
    const codes = new Set(Array.from({ length: 50 }, () => newSignInCode()));
    expect(codes.size).toBe(50);
    for (const code of codes)
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
  });

  it('reads a code as a person types it, and nothing else', () => {
    expect(normalizeSignInCode(' abcde fghjk-mnp0q ')).toBe('ABCDE-FGHJK-MNP0Q');
    expect(normalizeSignInCode('oOoOo-iIlLl-00000')).toBe('00000-11111-00000');
    expect(normalizeSignInCode('ABCDE-FGHJK-MNP0')).toBeUndefined();
    expect(normalizeSignInCode('ABCDE-FGHJK-MNP0U')).toBeUndefined();
  });

  it('reads the one session cookie among others, and refuses two or a malformed one', () => {
    const token = newSessionToken();
    expect(readSessionCookie({ cookie: `a=1; rtr_session=${token}; b=2` })).toBe(token);
    expect(readSessionCookie({ cookie: `rtr_session=${token}; rtr_session=${newSessionToken()}` })).toBe(
      undefined,
    );
    expect(readSessionCookie({ cookie: 'rtr_session=short' })).toBeUndefined();
    expect(readSessionCookie({})).toBeUndefined();
    expect(hasSessionCookie({ cookie: 'x=1; rtr_session=anything' })).toBe(true);
    expect(hasSessionCookie({ cookie: 'my_rtr_session=1' })).toBe(false);
  });

  it('writes an HTTP-only, SameSite=Strict cookie for every path, Secure only under TLS', () => {
    expect(sessionCookie('tok', { maxAgeSeconds: 3600, secure: false })).toBe(
      'rtr_session=tok; Path=/; HttpOnly; SameSite=Strict; Max-Age=3600',
    );
    expect(sessionCookie('tok', { maxAgeSeconds: 0, secure: true })).toBe(
      'rtr_session=tok; Path=/; HttpOnly; SameSite=Strict; Max-Age=0; Secure',
    );
  });

  it("matches a session's CSRF token only, from its cookie's token alone", () => {
    const token = newSessionToken();
    const other = newSessionToken();
    expect(csrfTokenMatches(token, csrfTokenFor(token))).toBe(true);
    expect(csrfTokenMatches(token, csrfTokenFor(other))).toBe(false);
    expect(csrfTokenMatches(token, undefined)).toBe(false);
    expect(csrfTokenMatches(token, [csrfTokenFor(token)])).toBe(false);
    expect(hashSecret(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret(token)).not.toContain(token);
  });
});
