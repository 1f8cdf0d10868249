import { MIRROR_REFUSAL_KINDS, type MirrorRefusalKind, type MirrorRequest } from '@router/vendors-core';
import { vendorGAccess } from './vendor-g.access';

function request(headers: Record<string, string> = {}, query = ''): MirrorRequest {
  return { method: 'POST', path: '/nowhere', headers, query: new URLSearchParams(query) };
}

function parsed(kind: MirrorRefusalKind, req = request()) {
  const reply = vendorGAccess.refuse(kind, req);
  return { status: reply.status, headers: reply.headers, body: JSON.parse(reply.body) as unknown };
}

describe('vendor_g mirror access', () => {
  it('reads the REST key as Authorization: Bearer', () => {
    expect(vendorGAccess.readKey(request({ authorization: 'Bearer rtr_x' }))).toBe('rtr_x');
  });

  it.each(MIRROR_REFUSAL_KINDS.filter((k) => k !== 'out-of-credit'))(
    'refuses %s with 401 unauthenticated',
    (kind) => {
      expect(parsed(kind)).toEqual({
        status: 401,
        headers: { 'content-type': 'application/json' },
        body: {
          status_code: 401,
          error_type: 'unauthenticated',
          message: expect.any(String),
          validation_errors: [],
          request_id: expect.any(String),
        },
      });
    },
  );

  it('refuses no credit with 402 insufficient_quota', () => {
    expect(parsed('out-of-credit').body).toMatchObject({
      status_code: 402,
      error_type: 'insufficient_quota',
    });
    expect(parsed('out-of-credit').status).toBe(402);
  });

  it('takes api_key out of socket messages and refuses a stream as the vendor fails a connection', () => {
    const socket = vendorGAccess.socket;
    if (socket.refusal !== 'after-accept') throw new Error('vendor_g refuses after accepting');
    const first = socket.takeKey('{"api_key":"rtr_k","stream_id":"s1","model":"m"}');
    if ('unreadable' in first) throw new Error('the message is readable');
    expect([first.key, first.message]).toEqual(['rtr_k', '{"stream_id":"s1","model":"m"}']);
    const refusal = socket.refuse('invalid-key', first);
    expect(refusal.closeCode).toBe(1008);
    expect(refusal.messages.map((m) => JSON.parse(m) as unknown)).toEqual([
      { stream_id: 's1', error_code: 401, error_message: expect.any(String) },
      { stream_id: 's1', terminated: true },
    ]);
  });

  it('answers an unknown path with its 404', () => {
    const reply = vendorGAccess.notFound({ method: 'GET', path: '/v9' });
    expect([reply.status, JSON.parse(reply.body)]).toEqual([
      404,
      {
        status_code: 404,
        error_type: 'not_found',
        message: 'Not Found',
        validation_errors: [],
        request_id: expect.any(String),
      },
    ]);
  });
});
