import { MIRROR_REFUSAL_KINDS, type MirrorRefusalKind, type MirrorRequest } from '@router/vendors-core';
import { vendorDAccess } from './vendor-d.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

function parsed(kind: MirrorRefusalKind, req = request()) {
  const reply = vendorDAccess.refuse(kind, req);
  return { status: reply.status, headers: reply.headers, body: JSON.parse(reply.body) as unknown };
}

describe('vendor_d mirror access', () => {
  it('reads the key as Authorization: Bearer', () => {
    expect(vendorDAccess.readKey(request({ authorization: 'Bearer rtr_x' }))).toBe('rtr_x');
    expect(vendorDAccess.readKey(request({ authorization: 'Token rtr_x' }))).toBeUndefined();
    expect(vendorDAccess.keyHeaders).toEqual(['authorization']);
  });

  it.each(MIRROR_REFUSAL_KINDS.filter((k) => k !== 'out-of-credit'))(
    'refuses %s with 401 invalid_api_key',
    (kind) => {
      expect(parsed(kind)).toEqual({
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: {
          error: {
            message: expect.any(String),
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        },
      });
    },
  );

  it('refuses no credit with 402 insufficient_credits', () => {
    expect(parsed('out-of-credit')).toEqual({
      status: 402,
      headers: { 'content-type': 'application/json' },
      body: {
        error: {
          message: expect.any(String),
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_credits',
        },
      },
    });
  });

  it('answers an unknown path naming the method and path, as the vendor does', () => {
    const reply = vendorDAccess.notFound({ method: 'POST', path: '/v1/audio/nope' });
    expect([reply.status, JSON.parse(reply.body)]).toEqual([
      404,
      {
        error: {
          message: 'Invalid URL (POST /v1/audio/nope)',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    ]);
  });
});
