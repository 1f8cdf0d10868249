import { vendorGAccess } from './vendor-g.access';

describe('vendor_g mirror access: its sockets (the rest of its door: libs/vendors/registry mirror-access.spec)', () => {
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
});
