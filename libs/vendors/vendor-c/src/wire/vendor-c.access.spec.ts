import { type MirrorRefusalKind, type MirrorRequest } from '@router/vendors-core';
import { takeVendorCMessageKey } from './vendor-c.access';
import { vendorCAccess } from './vendor-c.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

function parsed(kind: MirrorRefusalKind, req = request()) {
  const reply = vendorCAccess.refuse(kind, req);
  return { status: reply.status, headers: reply.headers, body: JSON.parse(reply.body) as unknown };
}

const authDetail = {
  type: 'authentication_error',
  code: 'invalid_api_key',
  message: expect.any(String),
  status: 'invalid_api_key',
  request_id: expect.stringMatching(/^[0-9a-f]{32}$/),
  param: 'api_key',
};

describe('vendor_c mirror access', () => {
  it('reads the key from vendor_c-api-key', () => {
    expect(vendorCAccess.readKey(request({ 'vendor_c-api-key': 'rtr_x' }))).toBe('rtr_x');
    expect(vendorCAccess.readKey(request({ authorization: 'Bearer rtr_x' }))).toBeUndefined();
    expect(vendorCAccess.keyHeaders).toEqual(['vendor_c-api-key']);
  });

  it('refuses a missing key with 401 and every other key problem with 400, in the detail shape', () => {
    expect(parsed('missing-key')).toEqual({
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: { detail: authDetail },
    });
    for (const kind of ['invalid-key', 'org-disabled', 'no-vendor-key'] as const) {
      expect(parsed(kind)).toEqual({
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: { detail: authDetail },
      });
    }
    expect(parsed('no-vendor-key').body).toMatchObject({
      detail: { message: expect.stringContaining('/dashboard/provider-keys') },
    });
  });

  it('refuses no credit with 402 insufficient_credits', () => {
    expect(parsed('out-of-credit')).toEqual({
      status: 402,
      headers: { 'content-type': 'application/json' },
      body: {
        detail: {
          type: 'payment_required',
          code: 'insufficient_credits',
          message: expect.any(String),
          status: 'insufficient_credits',
          request_id: expect.stringMatching(/^[0-9a-f]{32}$/),
        },
      },
    });
  });

  it('refuses a socket after accepting it: the error message, then close 1008', () => {
    const socket = vendorCAccess.socket;
    if (socket.refusal !== 'after-accept') throw new Error('vendor_c refuses after accepting');
    const refusal = socket.refuse('invalid-key', undefined);
    expect(refusal.closeCode).toBe(1008);
    expect(refusal.messages.map((m) => JSON.parse(m) as unknown)).toEqual([
      { message: expect.any(String), error: 'invalid_api_key', code: 1008 },
    ]);
    expect(JSON.parse(socket.refuse('out-of-credit', undefined).messages[0] ?? '')).toEqual({
      message: expect.any(String),
      error: 'insufficient_credits',
      code: 1008,
    });
  });

  it('takes the key out of a first message, in either field, and forwards the rest', () => {
    expect(
      takeVendorCMessageKey('{"text":" ","vendor_c_api_key":"rtr_k","voice_settings":{"speed":1}}'),
    ).toEqual({
      key: 'rtr_k',
      message: '{"text":" ","voice_settings":{"speed":1}}',
      fields: { text: ' ', vendor_c_api_key: 'rtr_k', voice_settings: { speed: 1 } },
    });
    const bearer = takeVendorCMessageKey('{"text":" ","authorization":"Bearer rtr_b"}');
    expect([bearer.key, bearer.message]).toEqual(['rtr_b', '{"text":" "}']);
    const none = takeVendorCMessageKey('{"text":"Hello."}');
    expect([none.key, none.message]).toEqual([undefined, '{"text":"Hello."}']);
    expect(takeVendorCMessageKey('not json').message).toBe('not json');
  });

  it('answers an unknown path with its 404', () => {
    const reply = vendorCAccess.notFound({ method: 'GET', path: '/v9/nope' });
    expect([reply.status, JSON.parse(reply.body)]).toEqual([404, { detail: 'Not Found' }]);
  });
});
