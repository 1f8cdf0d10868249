import { MIRROR_REFUSAL_KINDS, type MirrorRefusalKind, type MirrorRequest } from '@router/vendors-core';
import { vendorHAccess } from './vendor-h.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

function parsed(kind: MirrorRefusalKind, req = request()) {
  const reply = vendorHAccess.refuse(kind, req);
  return { status: reply.status, headers: reply.headers, body: JSON.parse(reply.body) as unknown };
}

describe('vendor_h mirror access', () => {
  it('reads the key as Authorization: Bearer', () => {
    expect(vendorHAccess.readKey(request({ authorization: 'Bearer rtr_x' }))).toBe('rtr_x');
  });

  it.each(MIRROR_REFUSAL_KINDS.filter((k) => k !== 'out-of-credit'))(
    'refuses %s with 401 {error: "unauthorized"}',
    (kind) => {
      expect(parsed(kind)).toEqual({
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: { error: 'unauthorized' },
      });
    },
  );

  it('refuses no credit with 402 in its {error} shape', () => {
    expect(parsed('out-of-credit')).toEqual({
      status: 402,
      headers: { 'content-type': 'application/json' },
      body: { error: expect.stringContaining('credit') },
    });
  });

  it('answers an unknown path with its 404', () => {
    const reply = vendorHAccess.notFound({ method: 'GET', path: '/v9' });
    expect([reply.status, JSON.parse(reply.body)]).toEqual([404, { error: 'Not Found' }]);
  });
});
