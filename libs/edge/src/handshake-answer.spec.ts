import { answerNaming, HandshakeAnswer } from './handshake-answer';

const HEAD =
  'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: x';
const FRAME = Buffer.from([0x81, 0x02, 0x68, 0x69]);

describe('a spliced handshake answer naming the key sub-protocol', () => {
  it('adds the protocol to a 101 that names none', () => {
    expect(answerNaming(HEAD, 'api-subscription-key.rtr_k')).toBe(
      `${HEAD}\r\nSec-WebSocket-Protocol: api-subscription-key.rtr_k`,
    );
  });

  it('leaves a 101 that names a protocol of its own, and any other answer, as they came', () => {
    const chosen = `${HEAD}\r\nsec-websocket-protocol: chat`;
    expect(answerNaming(chosen, 'token')).toBe(chosen);
    const refused = 'HTTP/1.1 403 Forbidden\r\nContent-Length: 0';
    expect(answerNaming(refused, 'token')).toBe(refused);
  });

  it('holds the answer until its blank line, then passes it named, with the frames that followed', () => {
    const answer = new HandshakeAnswer('token');
    const bytes = Buffer.concat([Buffer.from(`${HEAD}\r\n\r\n`, 'latin1'), FRAME]);
    expect(answer.read(bytes.subarray(0, 20))).toBeUndefined();
    expect(answer.read(bytes.subarray(20, HEAD.length + 2))).toBeUndefined();
    const passed = answer.read(bytes.subarray(HEAD.length + 2));
    expect(passed?.toString('latin1')).toBe(
      `${HEAD}\r\nSec-WebSocket-Protocol: token\r\n\r\n${FRAME.toString('latin1')}`,
    );
  });

  it('passes an answer with no blank line within 16 KiB on as it came', () => {
    const answer = new HandshakeAnswer('token');
    const long = Buffer.alloc(16 * 1024, 'a');
    expect(answer.read(long)).toEqual(long);
  });
});
