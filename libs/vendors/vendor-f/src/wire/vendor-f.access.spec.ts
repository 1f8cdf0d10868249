import { MIRROR_REFUSAL_KINDS, type MirrorRefusalKind, type MirrorRequest } from '@router/vendors-core';
import { vendorFAccess } from './vendor-f.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

function parsed(kind: MirrorRefusalKind, req = request()) {
  const reply = vendorFAccess.refuse(kind, req);
  return { status: reply.status, headers: reply.headers, body: JSON.parse(reply.body) as unknown };
}

describe('vendor_f mirror access', () => {
  it('reads the key as Authorization: Bearer', () => {
    expect(vendorFAccess.readKey(request({ authorization: 'bearer rtr_x' }))).toBe('rtr_x');
    expect(vendorFAccess.readKey(request({}))).toBeUndefined();
  });

  it.each(MIRROR_REFUSAL_KINDS.filter((k) => k !== 'out-of-credit'))(
    'refuses %s as its gateway: 401 Unauthorized',
    (kind) => {
      expect(parsed(kind)).toEqual({
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: { code: 'Unauthorized', error: expect.any(String) },
      });
    },
  );

  it('refuses no credit with 402 insufficient_credits', () => {
    expect(parsed('out-of-credit')).toEqual({
      status: 402,
      headers: { 'content-type': 'application/json' },
      body: { code: 'insufficient_credits', error: expect.any(String) },
    });
  });

  it('answers an unknown path with its gateway 404', () => {
    const reply = vendorFAccess.notFound({ method: 'GET', path: '/v9' });
    expect([reply.status, JSON.parse(reply.body)]).toEqual([
      404,
      { code: 'Not Found', error: 'no route matched' },
    ]);
  });
});
