/*
 * The app-to-client bytes of a spliced WebSocket, as far as the gateway needs to read them: where one message
 * ends, so that it can put messages of its own between two of the app's (a refusal when a key is revoked),
 * and those messages framed as a server frames them (unmasked, RFC 6455 5.2).
 */

const OPCODE_TEXT = 0x1;
const OPCODE_CLOSE = 0x8;
/** Opcodes from 0x8 up are control frames (close, ping, pong): never fragmented, allowed inside a message. */
const FIRST_CONTROL_OPCODE = 0x8;
/** The app's handshake answer is a few hundred bytes; one that grows past this is not read any further. */
const MAX_HEAD_BYTES = 16 * 1024;
const HEAD_END = '\r\n\r\n';

/**
 * Follows the bytes an app sends a client on a spliced WebSocket: its handshake answer (`HTTP/1.1 101 …`),
 * then frames, reading only each frame's header (2 to 14 bytes) and skipping its payload by its length, so
 * a chunk of audio costs a few comparisons, not a pass over its bytes. A message ends after a data frame
 * with FIN set; control frames may come between the fragments of a message and end none. Nothing may follow
 * a close frame, and an answer other than 101 (the app refused the handshake) is no WebSocket: neither has a
 * message boundary.
 */
export class ServerFrameTracker {
  private phase: 'head' | 'frames' | 'not-a-socket' = 'head';
  /** The handshake answer read so far (latin1), until its blank line. */
  private head = '';
  /** The current frame's header, gathered across chunks. */
  private readonly header = Buffer.alloc(14);
  private headerLength = 0;
  /** Bytes of the current frame's payload still to come. */
  private payloadLeft = 0;
  private frameFin = false;
  private frameOpcode = 0;
  /** A data message whose first frames have come but not its last (FIN). */
  private inFragmentedMessage = false;
  /** The app has sent its close frame: nothing may follow it, so there is no boundary any more. */
  private closed = false;

  /** Whether the bytes read so far end between two messages: nothing of a frame or message is pending. */
  get atMessageBoundary(): boolean {
    return (
      this.phase === 'frames' &&
      this.headerLength === 0 &&
      this.payloadLeft === 0 &&
      !this.inFragmentedMessage &&
      !this.closed
    );
  }

  /**
   * Reads the next bytes from the app. Returns how many of them were read: all of them, or with
   * `untilBoundary`, those up to the first message boundary (0 when the bytes so far already end at one).
   */
  read(chunk: Buffer, untilBoundary = false): number {
    let at = 0;
    while (at < chunk.length) {
      if (untilBoundary && this.atMessageBoundary) return at;
      if (this.phase === 'not-a-socket') return chunk.length;
      if (this.phase === 'head') {
        at = this.readHead(chunk, at);
      } else if (this.headerLength === 0 && this.payloadLeft > 0) {
        const skipped = Math.min(this.payloadLeft, chunk.length - at);
        this.payloadLeft -= skipped;
        at += skipped;
        if (this.payloadLeft === 0) this.endFrame();
      } else {
        at = this.readHeader(chunk, at);
      }
    }
    return at;
  }

  private readHead(chunk: Buffer, at: number): number {
    const before = this.head.length;
    const end = Math.min(chunk.length, at + MAX_HEAD_BYTES);
    this.head += chunk.toString('latin1', at, end);
    const found = this.head.indexOf(HEAD_END, Math.max(0, before - (HEAD_END.length - 1)));
    if (found < 0) {
      if (this.head.length >= MAX_HEAD_BYTES) this.phase = 'not-a-socket';
      return end;
    }
    this.phase = /^HTTP\/1\.1 101 /.test(this.head) ? 'frames' : 'not-a-socket';
    this.head = '';
    return at + (found + HEAD_END.length - before);
  }

  private readHeader(chunk: Buffer, at: number): number {
    let next = at;
    while (next < chunk.length) {
      this.header[this.headerLength] = chunk[next];
      this.headerLength += 1;
      next += 1;
      const needed = this.headerLength < 2 ? 2 : headerSize(this.header);
      if (this.headerLength < needed) continue;
      this.startFrame();
      break;
    }
    return next;
  }

  private startFrame(): void {
    const first = this.header[0];
    const lengthByte = this.header[1] & 0x7f;
    this.frameFin = (first & 0x80) !== 0;
    this.frameOpcode = first & 0x0f;
    if (lengthByte === 126) this.payloadLeft = this.header.readUInt16BE(2);
    else if (lengthByte === 127) this.payloadLeft = Number(this.header.readBigUInt64BE(2));
    else this.payloadLeft = lengthByte;
    this.headerLength = 0;
    if (this.payloadLeft === 0) this.endFrame();
  }

  private endFrame(): void {
    if (this.frameOpcode < FIRST_CONTROL_OPCODE) this.inFragmentedMessage = !this.frameFin;
    else if (this.frameOpcode === OPCODE_CLOSE) this.closed = true;
  }
}

/** A frame header's whole size from its first two bytes: 2, plus the extended length, plus a masking key. */
function headerSize(header: Buffer): number {
  const second = header[1];
  const lengthByte = second & 0x7f;
  const extended = lengthByte === 126 ? 2 : lengthByte === 127 ? 8 : 0;
  return 2 + extended + ((second & 0x80) !== 0 ? 4 : 0);
}

/** One whole server frame (FIN set, unmasked) carrying `payload`. */
function serverFrame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  const extended = length < 126 ? 0 : length < 0x10000 ? 2 : 8;
  const frame = Buffer.alloc(2 + extended + length);
  frame[0] = 0x80 | opcode;
  if (extended === 0) frame[1] = length;
  else if (extended === 2) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, 2 + extended);
  return frame;
}

/** A text message as one server frame. */
export function serverTextFrame(text: string): Buffer {
  return serverFrame(OPCODE_TEXT, Buffer.from(text, 'utf8'));
}

/** A close frame with `code` and `reason` (left out past the 123 bytes a close frame may carry). */
export function serverCloseFrame(code: number, reason: string): Buffer {
  let why = Buffer.from(reason, 'utf8');
  if (why.length > 123) why = Buffer.alloc(0);
  const payload = Buffer.alloc(2 + why.length);
  payload.writeUInt16BE(code, 0);
  why.copy(payload, 2);
  return serverFrame(OPCODE_CLOSE, payload);
}
