import { MIRROR_REFUSAL_KINDS, type MirrorRefusalKind, type MirrorRequest } from '@router/vendors-core';
import { vendorIAccess } from './vendor-i.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

function parsed(kind: MirrorRefusalKind, req = request()) {
  const reply = vendorIAccess.refuse(kind, req);
  return { status: reply.status, headers: reply.headers, body: JSON.parse(reply.body) as unknown };
}

describe('vendor_i mirror access', () => {
  it('reads the key from X-API-Key and leaves the version header on the request', () => {
    expect(vendorIAccess.readKey(request({ 'x-api-key': 'rtr_x' }))).toBe('rtr_x');
    expect(vendorIAccess.keyHeaders).toEqual(['x-api-key']);
  });

  it.each(MIRROR_REFUSAL_KINDS.filter((k) => k !== 'out-of-credit'))(
    'refuses %s with 401 JSON from version 2026-03-01 (header or query)',
    (kind) => {
      const expected = {
        status: 401,
        headers: { 'content-type': 'application/json', 'x-request-id': expect.any(String) },
        body: {
          error_code: 'invalid_api_key',
          title: 'Unauthorized',
          message: expect.any(String),
          request_id: expect.any(String),
        },
      };
      expect(parsed(kind, request({ 'vendor_i-version': '2026-03-01' }))).toEqual(expected);
      expect(parsed(kind, request({}, 'vendor_i_version=2026-03-01'))).toEqual(expected);
    },
  );

  it.each(MIRROR_REFUSAL_KINDS.filter((k) => k !== 'out-of-credit'))(
    'refuses %s with 401 "Title: Message" text before 2026-03-01',
    (kind) => {
      const reply = vendorIAccess.refuse(kind, request({ 'vendor_i-version': '2025-04-16' }));
      expect(reply.status).toBe(401);
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(reply.body).toMatch(/^Unauthorized: .+/);
      expect(vendorIAccess.refuse(kind, request()).body).toMatch(/^Unauthorized: /);
    },
  );

  it('refuses no credit with 402 insufficient_credits', () => {
    expect(parsed('out-of-credit', request({ 'vendor_i-version': '2026-03-01' })).body).toEqual({
      error_code: 'insufficient_credits',
      title: 'Payment Required',
      message: expect.any(String),
      request_id: expect.any(String),
    });
  });

  it('answers an unknown path with the text 404 page not found', () => {
    expect(vendorIAccess.notFound({ method: 'GET', path: '/nope' })).toEqual({
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: '404 page not found',
    });
  });
});
