import { MIRROR_REFUSAL_KINDS, type MirrorRefusalKind, type MirrorRequest } from '@router/vendors-core';
import { vendorEAccess } from './vendor-e.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

function parsed(kind: MirrorRefusalKind, req = request()) {
  const reply = vendorEAccess.refuse(kind, req);
  return { status: reply.status, headers: reply.headers, body: JSON.parse(reply.body) as unknown };
}

describe('vendor_e mirror access', () => {
  it('reads the key as Authorization: Token', () => {
    expect(vendorEAccess.readKey(request({ authorization: 'Token rtr_x' }))).toBe('rtr_x');
    expect(vendorEAccess.readKey(request({ authorization: 'Bearer rtr_x' }))).toBeUndefined();
  });

  it.each(MIRROR_REFUSAL_KINDS.filter((k) => k !== 'out-of-credit'))(
    'refuses %s with 401 INVALID_AUTH',
    (kind) => {
      expect(parsed(kind)).toEqual({
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: {
          err_code: 'INVALID_AUTH',
          err_msg: expect.any(String),
          request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        },
      });
    },
  );

  it('refuses no credit with 402 insufficient_credits, and sockets at the handshake', () => {
    expect(parsed('out-of-credit')).toEqual({
      status: 402,
      headers: { 'content-type': 'application/json' },
      body: { err_code: 'insufficient_credits', err_msg: expect.any(String), request_id: expect.any(String) },
    });
    expect(vendorEAccess.socket.refusal).toBe('handshake');
  });

  it('answers an unknown path with its 404', () => {
    const reply = vendorEAccess.notFound({ method: 'GET', path: '/v9' });
    expect([reply.status, JSON.parse(reply.body)]).toEqual([
      404,
      { err_code: 'NOT_FOUND', err_msg: 'Not Found', request_id: null },
    ]);
  });
});
