/**
 * The wire format of a streamed reply on NATS: a fixed 16-byte binary header, then the payload (raw audio
 * bytes for chunks, JSON for the request, header, trailer and error, nothing for control frames).
 *
 *   byte 0      format version (2; version 1 began every reply with a separate start frame)
 *   byte 1      kind (FrameKind)
 *   byte 2      flags (bit 0: more fragments of this chunk follow; bit 1 on `open`: send alive frames;
 *               bit 2 on `open` and on the server's first frame: this process sends and reads heartbeats)
 *   byte 3      reserved, 0
 *   bytes 4-7   sequence number, per direction, from 0, uint32 big-endian
 *   bytes 8-11  value: `open` the initial window, `credit` the chunks granted
 *   bytes 12-15 value2: `open` the liveness interval in ms (each process sends its peer a heartbeat every
 *               quarter of it, and gives up the streams a peer requested once that peer is silent for it)
 *
 * A heartbeat is a `ping` frame on `<peer's inbox>.hb` whose reply subject is the sender's inbox: one per
 * pair of processes per tick, whatever the number of streams between them.
 */
export const FRAME_VERSION = 2;
export const FRAME_HEADER_BYTES = 16;

export enum FrameKind {
  /** requester → subject: the JSON request; value = window, value2 = liveness ms. */
  Open = 1,
  // 2 was version 1's start frame: the server's first frame (its header or error) now says where credit and
  // cancel go (its reply subject), one message fewer per stream.
  /** server → requester: the JSON header, always the first frame unless the stream fails first. */
  Header = 3,
  Chunk = 4,
  End = 5,
  Error = 6,
  /** requester → server: `value` more chunks may be sent. */
  Credit = 7,
  Cancel = 8,
  /**
   * A process's heartbeat to a peer (on `<inbox>.hb`); to a server of an older release, a requester's
   * per-stream "still here" on the stream's control subject.
   */
  Ping = 9,
  /**
   * server → requester: still here (sent when nothing else was for a while, e.g. while the vendor has not
   * answered yet), so a requester tells a server that died from one that is only slow.
   */
  Alive = 10,
}

export const FLAG_MORE = 1;
/**
 * On an `open` frame: the requester reads alive frames, so the server may send them. A requester of an older
 * release (in a rolling upgrade) leaves it off and is sent none.
 */
export const FLAG_ALIVE = 2;
/**
 * On an `open` frame, and on the server's first frame (then an alive frame sent at once): this process sends
 * heartbeats and judges liveness per process. Where either end leaves it off (an older release), the two
 * judge that stream alone: the requester pings on it and the server sends alive frames on it.
 */
export const FLAG_PEER = 4;

export interface Frame {
  kind: FrameKind;
  flags: number;
  seq: number;
  value: number;
  value2: number;
  payload: Uint8Array;
}

export function encodeFrame(
  kind: FrameKind,
  seq: number,
  payload?: Uint8Array,
  fields: { flags?: number; value?: number; value2?: number } = {},
): Uint8Array {
  const length = payload?.length ?? 0;
  const bytes = Buffer.allocUnsafe(FRAME_HEADER_BYTES + length);
  bytes[0] = FRAME_VERSION;
  bytes[1] = kind;
  bytes[2] = fields.flags ?? 0;
  bytes[3] = 0;
  bytes.writeUInt32BE(seq >>> 0, 4);
  bytes.writeUInt32BE((fields.value ?? 0) >>> 0, 8);
  bytes.writeUInt32BE((fields.value2 ?? 0) >>> 0, 12);
  if (payload && length > 0) bytes.set(payload, FRAME_HEADER_BYTES);
  return bytes;
}

/** Returns undefined for bytes that are not a frame of this version. */
export function decodeFrame(bytes: Uint8Array): Frame | undefined {
  if (bytes.length < FRAME_HEADER_BYTES || bytes[0] !== FRAME_VERSION) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kind = bytes[1] as FrameKind;
  if (!(kind in FrameKind)) return undefined;
  return {
    kind,
    flags: bytes[2] ?? 0,
    seq: view.getUint32(4),
    value: view.getUint32(8),
    value2: view.getUint32(12),
    payload: bytes.subarray(FRAME_HEADER_BYTES),
  };
}
