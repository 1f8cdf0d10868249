import { decodeFrame, encodeFrame, FLAG_MORE, FRAME_HEADER_BYTES, FrameKind } from './stream-frame.codec';

describe('stream frames', () => {
  it('round-trips kind, flags, sequence, values and raw payload bytes', () => {
    const payload = new Uint8Array([0, 255, 1, 2]);
    const bytes = encodeFrame(FrameKind.Chunk, 4_000_000_000, payload, {
      flags: FLAG_MORE,
      value: 7,
      value2: 15000,
    });
    expect(bytes.length).toBe(FRAME_HEADER_BYTES + payload.length);
    expect([...bytes.subarray(FRAME_HEADER_BYTES)]).toEqual([...payload]);
    expect(decodeFrame(bytes)).toEqual({
      kind: FrameKind.Chunk,
      flags: FLAG_MORE,
      seq: 4_000_000_000,
      value: 7,
      value2: 15000,
      payload: new Uint8Array([0, 255, 1, 2]),
    });
  });

  it('encodes control frames with an empty payload', () => {
    const frame = decodeFrame(encodeFrame(FrameKind.Credit, 3, undefined, { value: 8 }));
    expect(frame).toMatchObject({ kind: FrameKind.Credit, seq: 3, value: 8 });
    expect(frame?.payload.length).toBe(0);
  });

  it('rejects bytes that are not a frame of this version', () => {
    expect(decodeFrame(new Uint8Array(3))).toBeUndefined();
    // Version 1 (a separate start frame) and any later version are another protocol.
    for (const version of [1, 3]) {
      const wrongVersion = encodeFrame(FrameKind.End, 0);
      wrongVersion[0] = version;
      expect(decodeFrame(wrongVersion)).toBeUndefined();
    }
    for (const kind of [0, 2, 11, 42]) {
      const unknownKind = encodeFrame(FrameKind.End, 0);
      unknownKind[1] = kind;
      expect(decodeFrame(unknownKind)).toBeUndefined();
    }
    expect(decodeFrame(Buffer.from('{"json":true}and more'))).toBeUndefined();
  });
});
