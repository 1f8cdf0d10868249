import { MIRROR_REFUSAL_KINDS, type MirrorRefusalKind, type MirrorRequest } from '@router/vendors-core';
import { vendorBAccess } from './vendor-b.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

function parsed(kind: MirrorRefusalKind, req = request()) {
  const reply = vendorBAccess.refuse(kind, req);
  return { status: reply.status, headers: reply.headers, body: JSON.parse(reply.body) as unknown };
}

describe('vendor_b mirror access', () => {
  it('reads the key from X-API-Key', () => {
    expect(vendorBAccess.readKey(request({ 'x-api-key': 'rtr_x' }))).toBe('rtr_x');
    expect(vendorBAccess.readKey(request({ authorization: 'Bearer rtr_x' }))).toBeUndefined();
    expect(vendorBAccess.keyHeaders).toEqual(['x-api-key']);
  });

  it.each(MIRROR_REFUSAL_KINDS.filter((k) => k !== 'out-of-credit'))(
    'refuses %s from its gateway: 401, a Key realm, {message, request_id: null}',
    (kind) => {
      expect(parsed(kind)).toEqual({
        status: 401,
        headers: { 'content-type': 'application/json', 'www-authenticate': 'Key realm="vendor_b"' },
        body: { message: expect.any(String), request_id: null },
      });
    },
  );

  it('refuses no credit with 402 insufficient_credits in its application shape', () => {
    expect(parsed('out-of-credit')).toEqual({
      status: 402,
      headers: { 'content-type': 'application/json' },
      body: { error: { code: 'insufficient_credits', message: expect.any(String) } },
    });
    expect(parsed('no-vendor-key').body).toEqual({
      message: expect.stringContaining('/dashboard/provider-keys'),
      request_id: null,
    });
  });

  it('answers an unknown path as its gateway does', () => {
    const reply = vendorBAccess.notFound({ method: 'GET', path: '/nope' });
    expect([reply.status, JSON.parse(reply.body)]).toEqual([
      404,
      { message: 'no Route matched with those values', request_id: null },
    ]);
  });
});
