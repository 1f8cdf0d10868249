import { JSON_MAX_DEPTH } from '@router/contracts';
import {
  type KeylessMessage,
  openSocketRefusal,
  type UnreadableMessage,
  unreadableMessageRefusal,
} from '@router/vendors-core';
import { takeVendorCMessageKey, vendorCAccess } from './vendor-c.access';

function keyless(taken: KeylessMessage | UnreadableMessage): KeylessMessage {
  if ('unreadable' in taken) throw new Error(`the message was unreadable: ${taken.unreadable}`);
  return taken;
}

/** vendor_c's socket access (it refuses after accepting). */
function afterAccept() {
  const socket = vendorCAccess.socket;
  if (socket.refusal !== 'after-accept') throw new Error('vendor_c refuses after accepting');
  return socket;
}

/** `{"x": [[…]]}` text, `levels` levels in all (the object being level 1), with `extra` fields first. */
function deepMessage(levels: number, extra: Record<string, string>): string {
  const head = JSON.stringify(extra).slice(0, -1);
  return `${head}${head === '{' ? '' : ','}"x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
}

describe('vendor_c mirror access: its sockets (the rest of its door: libs/vendors/registry mirror-access.spec)', () => {
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
      keyless(takeVendorCMessageKey('{"text":" ","vendor_c_api_key":"rtr_k","voice_settings":{"speed":1}}')),
    ).toEqual({
      key: 'rtr_k',
      message: '{"text":" ","voice_settings":{"speed":1}}',
      fields: { text: ' ', vendor_c_api_key: 'rtr_k', voice_settings: { speed: 1 } },
    });
    const bearer = keyless(takeVendorCMessageKey('{"text":" ","authorization":"Bearer rtr_b"}'));
    expect([bearer.key, bearer.message]).toEqual(['rtr_b', '{"text":" "}']);
    const none = keyless(takeVendorCMessageKey('{"text":"Hello."}'));
    expect([none.key, none.message]).toEqual([undefined, '{"text":"Hello."}']);
    expect(keyless(takeVendorCMessageKey('not json')).message).toBe('not json');
  });

  it('takes a key out of a message nested to the depth limit', () => {
    const taken = keyless(takeVendorCMessageKey(deepMessage(JSON_MAX_DEPTH, { vendor_c_api_key: 'rtr_k' })));
    expect(taken.key).toBe('rtr_k');
    expect(taken.message).toBe(deepMessage(JSON_MAX_DEPTH, {}));
  });

  it('never re-serialises a message with a key field nested past the limit: unreadable, its key unread', () => {
    for (const extra of [{ authorization: 'x' }, { vendor_c_api_key: 'rtr_k' }] as Record<string, string>[]) {
      for (const levels of [JSON_MAX_DEPTH + 1, 20_000]) {
        expect(takeVendorCMessageKey(deepMessage(levels, extra))).toEqual({
          unreadable: `x nests arrays and objects deeper than the limit of ${JSON_MAX_DEPTH} levels`,
        });
      }
    }
  });

  it('passes a deep message without a key field as it came (nothing walks it)', () => {
    const text = deepMessage(20_000, { text: 'Hello. ' });
    expect(keyless(takeVendorCMessageKey(text)).message).toBe(text);
  });

  it('refuses an unreadable message as it refuses a bad message: invalid_request, then close 1008', () => {
    const refusal = unreadableMessageRefusal(afterAccept(), 'x nests too deep');
    expect(refusal.closeCode).toBe(1008);
    expect(refusal.closeReason).toBe('invalid_request');
    expect(refusal.messages.map((m) => JSON.parse(m) as unknown)).toEqual([
      { message: 'x nests too deep', error: 'invalid_request', code: 1008 },
    ]);
  });

  it('closes a socket whose key was revoked while open as it refuses a wrong key', () => {
    for (const kind of ['invalid-key', 'org-disabled'] as const) {
      const refusal = openSocketRefusal(vendorCAccess.socket, kind);
      expect(refusal.closeCode).toBe(1008);
      expect(refusal.messages.map((m) => JSON.parse(m) as unknown)).toEqual([
        { message: expect.any(String), error: 'invalid_api_key', code: 1008 },
      ]);
    }
  });
});
