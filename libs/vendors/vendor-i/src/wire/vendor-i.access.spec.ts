import { MIRROR_REFUSAL_KINDS, type MirrorRequest } from '@router/vendors-core';
import { vendorIAccess } from './vendor-i.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

/** The refusals' shape by API version (the rest of its door: libs/vendors/registry mirror-access.spec). */
describe('vendor_i mirror access: refusals by version', () => {
  it.each(MIRROR_REFUSAL_KINDS)(
    'refuses %s with JSON from version 2026-03-01 named in the query too',
    (kind) => {
      const reply = vendorIAccess.refuse(kind, request({}, 'vendor_i_version=2026-03-01'));
      expect(reply.headers['content-type']).toBe('application/json');
      expect(JSON.parse(reply.body)).toMatchObject({
        title: expect.any(String),
        request_id: expect.any(String),
      });
    },
  );

  it.each(MIRROR_REFUSAL_KINDS.filter((k) => k !== 'out-of-credit'))(
    'refuses %s with 401 "Title: Message" text before 2026-03-01, or with no version',
    (kind) => {
      const reply = vendorIAccess.refuse(kind, request({ 'vendor_i-version': '2025-04-16' }));
      expect(reply.status).toBe(401);
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(reply.body).toMatch(/^Unauthorized: .+/);
      expect(vendorIAccess.refuse(kind, request()).body).toMatch(/^Unauthorized: /);
    },
  );

  it('leaves the version header on the request: it is no key', () => {
    expect(vendorIAccess.keyHeaders).not.toContain('vendor_i-version');
    expect(vendorIAccess.keyQueryParams).not.toContain('vendor_i_version');
    expect(vendorIAccess.readKey(request({ 'vendor_i-version': '2026-03-01' }))).toBeUndefined();
  });
});
