import { MIRROR_REFUSAL_KINDS, type MirrorRefusalKind, type MirrorRequest } from '@router/vendors-core';
import { vendorAAccess } from './vendor-a.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

function parsed(kind: MirrorRefusalKind, req = request()) {
  const reply = vendorAAccess.refuse(kind, req);
  return { status: reply.status, headers: reply.headers, body: JSON.parse(reply.body) as unknown };
}

describe('vendor_a mirror access', () => {
  it('reads the key from api-subscription-key only, and strips that header', () => {
    expect(vendorAAccess.readKey(request({ 'api-subscription-key': 'rtr_x' }))).toBe('rtr_x');
    expect(vendorAAccess.readKey(request({ authorization: 'Bearer rtr_x' }))).toBeUndefined();
    expect(vendorAAccess.keyHeaders).toEqual(['api-subscription-key']);
    expect(vendorAAccess.keyQueryParams).toEqual([]);
  });

  it.each(['missing-key', 'invalid-key', 'org-disabled', 'no-vendor-key'] as const)(
    'refuses %s with 403 invalid_api_key_error and a null request_id',
    (kind) => {
      expect(parsed(kind)).toEqual({
        status: 403,
        headers: { 'content-type': 'application/json' },
        body: { error: { message: expect.any(String), code: 'invalid_api_key_error', request_id: null } },
      });
    },
  );

  it('links to the dashboard when no vendor key is stored, and refuses no credit with 402', () => {
    expect(parsed('no-vendor-key').body).toMatchObject({
      error: { message: expect.stringContaining('/dashboard/provider-keys') },
    });
    expect(parsed('out-of-credit')).toEqual({
      status: 402,
      headers: { 'content-type': 'application/json' },
      body: { error: { message: expect.any(String), code: 'insufficient_credits', request_id: null } },
    });
  });

  it('answers an unknown path as the vendor does, and refuses sockets at the handshake', () => {
    const reply = vendorAAccess.notFound({ method: 'GET', path: '/nope' });
    expect([reply.status, reply.headers, JSON.parse(reply.body)]).toEqual([
      404,
      { 'content-type': 'application/json' },
      { detail: 'Not Found' },
    ]);
    expect(vendorAAccess.socket.refusal).toBe('handshake');
    expect(MIRROR_REFUSAL_KINDS).toHaveLength(5);
  });
});
