import { type MirrorRefusalKind, type MirrorRequest } from '@router/vendors-core';
import { vendorJAccess } from './vendor-j.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

function parsed(kind: MirrorRefusalKind, req = request()) {
  const reply = vendorJAccess.refuse(kind, req);
  return { status: reply.status, headers: reply.headers, body: JSON.parse(reply.body) as unknown };
}

const errorInfo = (reason: string) => [
  { '@type': 'type.vendor-j.invalid/rpc.ErrorInfo', reason, domain: 'vendor-j.invalid' },
];

describe('vendor_j mirror access', () => {
  it('reads the key from x-vendor_j-api-key or the key query parameter', () => {
    expect(vendorJAccess.readKey(request({ 'x-vendor_j-api-key': 'rtr_h' }))).toBe('rtr_h');
    expect(vendorJAccess.readKey(request({}, 'alt=sse&key=rtr_q'))).toBe('rtr_q');
    expect(vendorJAccess.keyQueryParams).toEqual(['key']);
  });

  it('refuses no key with 403 PERMISSION_DENIED', () => {
    expect(parsed('missing-key')).toEqual({
      status: 403,
      headers: { 'content-type': 'application/json' },
      body: {
        error: {
          code: 403,
          message: expect.any(String),
          status: 'PERMISSION_DENIED',
          details: errorInfo('CREDENTIALS_MISSING'),
        },
      },
    });
  });

  it.each(['invalid-key', 'org-disabled', 'no-vendor-key'] as const)(
    'refuses %s with 400 API_KEY_INVALID',
    (kind) => {
      expect(parsed(kind)).toEqual({
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: {
          error: {
            code: 400,
            message: expect.any(String),
            status: 'INVALID_ARGUMENT',
            details: errorInfo('API_KEY_INVALID'),
          },
        },
      });
    },
  );

  it('refuses no credit with 402', () => {
    expect(parsed('out-of-credit')).toMatchObject({ status: 402, body: { error: { code: 402 } } });
  });

  it('answers an unknown path with an empty 404', () => {
    expect(vendorJAccess.notFound({ method: 'GET', path: '/nope' })).toEqual({
      status: 404,
      headers: { 'content-type': 'text/html; charset=UTF-8' },
      body: '',
    });
  });
});
