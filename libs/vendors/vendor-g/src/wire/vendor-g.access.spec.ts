import { unreadableMessageRefusal } from '@router/vendors-core';
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

  it('holds keep-alives sent before the first config, and nothing else', () => {
    const socket = vendorGAccess.socket;
    if (socket.refusal !== 'after-accept') throw new Error('vendor_g refuses after accepting');
    const held = (message: string) => {
      const taken = socket.takeKey(message);
      if ('unreadable' in taken) throw new Error('the message is readable');
      return socket.keylessBeforeKey?.(taken) ?? false;
    };
    expect(held('{"keep_alive":true}')).toBe(true);
    expect(held('{"stream_id":"s1","model":"m"}')).toBe(false);
    expect(held('{"stream_id":"s1","text":"Hi."}')).toBe(false);
    expect(held('not json')).toBe(false);
  });

  it("refuses a message the router will not read in the vendor's error shape, then ends as a refused stream", () => {
    const socket = vendorGAccess.socket;
    if (socket.refusal !== 'after-accept') throw new Error('vendor_g refuses after accepting');
    const taken = socket.takeKey('{"text":"Hello.","api_key":1e400}');
    if (!('unreadable' in taken)) throw new Error('a number past a double is unreadable');
    const refusal = unreadableMessageRefusal(socket, taken.unreadable);
    expect(refusal.closeCode).toBe(1008);
    expect(refusal.messages.map((m) => JSON.parse(m) as unknown)).toEqual([
      { stream_id: null, error_code: 400, error_message: taken.unreadable },
      { stream_id: null, terminated: true },
    ]);
  });
});
