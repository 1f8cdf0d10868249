import type { Writable } from 'node:stream';
import WebSocket from 'ws';
import { serverCloseFrame, ServerFrameTracker, serverTextFrame } from './server-frames';

/** ws's own framing and parsing (not in its published types), as an independent check of ours. */
const wsInternals = WebSocket as unknown as {
  Sender: { frame(data: Buffer, options: Record<string, unknown>): Buffer[] };
  Receiver: new (options: { isServer: boolean }) => Writable;
};

/** A frame as ws's sender writes it (a server's: unmasked unless `mask`). */
function frame(
  opcode: number,
  payload: Buffer | string,
  options: { fin?: boolean; mask?: boolean } = {},
): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  return Buffer.concat(
    wsInternals.Sender.frame(data, {
      fin: options.fin ?? true,
      opcode,
      mask: options.mask ?? false,
      readOnly: false,
      rsv1: false,
    }),
  );
}

const HEAD = Buffer.from(
  'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
    'Sec-WebSocket-Accept: x\r\n\r\n',
);

/**
 * The offsets at which the bytes so far end between two messages, the bytes fed `chunkSize` at a time, as the
 * splice reads them: each chunk up to its next boundary, then on past it.
 */
function boundaries(bytes: Buffer, chunkSize: number): number[] {
  const tracker = new ServerFrameTracker();
  const found = new Set<number>();
  for (let start = 0; start < bytes.length; start += chunkSize) {
    const chunk = bytes.subarray(start, start + chunkSize);
    let at = 0;
    for (;;) {
      at += tracker.read(chunk.subarray(at), true);
      if (tracker.atMessageBoundary) found.add(start + at);
      if (at === chunk.length) break;
      at += tracker.read(chunk.subarray(at, at + 1));
    }
  }
  return [...found];
}

/** The offset of every frame end in `frames` after the head, given which frames end a message. */
function ends(frames: Buffer[], endsMessage: boolean[]): number[] {
  const offsets: number[] = [];
  let at = HEAD.length;
  frames.forEach((f, i) => {
    at += f.length;
    if (endsMessage[i]) offsets.push(at);
  });
  return offsets;
}

describe('ServerFrameTracker', () => {
  it('finds the end of the handshake answer and of every message, at any chunking', () => {
    const frames = [
      frame(0x1, '{"type":"ready"}'),
      frame(0x2, Buffer.alloc(125, 1)),
      frame(0x2, Buffer.alloc(126, 2)),
      frame(0x2, Buffer.alloc(70_000, 3)),
      frame(0x9, ''),
      frame(0x1, ''),
    ];
    const bytes = Buffer.concat([HEAD, ...frames]);
    const expected = [HEAD.length, ...ends(frames, [true, true, true, true, true, true])];
    for (const chunkSize of [1, 2, 3, 7, 13, 1024, bytes.length]) {
      expect([chunkSize, boundaries(bytes, chunkSize)]).toEqual([chunkSize, expected]);
    }
  });

  it('sees no boundary inside a fragmented message, even after a control frame between its fragments', () => {
    const frames = [
      frame(0x2, 'first', { fin: false }),
      frame(0x9, 'ping'),
      frame(0x0, 'middle', { fin: false }),
      frame(0xa, 'pong'),
      frame(0x0, 'last'),
      frame(0x1, 'next'),
    ];
    const bytes = Buffer.concat([HEAD, ...frames]);
    expect(boundaries(bytes, 5)).toEqual([
      HEAD.length,
      ...ends(frames, [false, false, false, false, true, true]),
    ]);
  });

  it('reads a masked frame by its header too', () => {
    const frames = [frame(0x1, 'masked', { mask: true }), frame(0x1, 'plain')];
    expect(boundaries(Buffer.concat([HEAD, ...frames]), 4)).toEqual([
      HEAD.length,
      ...ends(frames, [true, true]),
    ]);
  });

  it('stops at the first message boundary when asked, and at once when the bytes so far end at one', () => {
    const audio = frame(0x2, Buffer.alloc(4000, 7));
    const tracker = new ServerFrameTracker();
    expect(tracker.read(HEAD, true)).toBe(HEAD.length);
    expect(tracker.read(audio, true)).toBe(0);
    expect(tracker.read(audio.subarray(0, 1000))).toBe(1000);
    expect(tracker.atMessageBoundary).toBe(false);
    const rest = Buffer.concat([audio.subarray(1000), frame(0x1, 'after')]);
    expect(tracker.read(rest, true)).toBe(audio.length - 1000);
    expect(tracker.atMessageBoundary).toBe(true);
  });

  it("sees no boundary after the app's close frame: nothing may follow it", () => {
    const frames = [frame(0x1, 'last words'), frame(0x8, Buffer.from([0x03, 0xe8])), frame(0x1, 'x')];
    expect(boundaries(Buffer.concat([HEAD, ...frames]), 4)).toEqual([
      HEAD.length,
      ...ends(frames, [true, false, false]),
    ]);
  });

  it('never sees a boundary after an answer other than 101 (the app refused the handshake)', () => {
    const refusal = Buffer.from('HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}');
    expect(boundaries(Buffer.concat([refusal, frame(0x1, 'x')]), 3)).toEqual([]);
  });

  it('frames text and close messages as a client reads them', async () => {
    const receiver = new wsInternals.Receiver({ isServer: false });
    const received: unknown[] = [];
    receiver.on('message', (data: Buffer, isBinary: boolean) => received.push([data.toString(), isBinary]));
    receiver.on('conclude', (code: number, reason: Buffer) => received.push([code, reason.toString()]));
    const long = 'x'.repeat(70_000);
    await new Promise<void>((resolve, reject) =>
      receiver.write(
        Buffer.concat([
          serverTextFrame('{"type":"error"}'),
          serverTextFrame(long),
          serverCloseFrame(1008, 'API key revoked'),
        ]),
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    expect(received).toEqual([
      ['{"type":"error"}', false],
      [long, false],
      [1008, 'API key revoked'],
    ]);
  });

  it('leaves out a close reason longer than a close frame may carry', () => {
    expect(serverCloseFrame(1008, 'x'.repeat(124))).toEqual(Buffer.from([0x88, 2, 0x03, 0xf0]));
  });
});
