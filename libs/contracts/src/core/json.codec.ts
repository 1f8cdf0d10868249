import { CheckFailure, PayloadCheckError, type PayloadPart } from './payload-check.error';

/** Bytes on the wire for a JSON message. `undefined` travels as zero bytes so "no payload" survives a round trip. */
export interface Codec {
  encode(value: unknown): Uint8Array;
  decode(bytes: Uint8Array, subject: string, part: PayloadPart): unknown;
}

export const jsonCodec: Codec = {
  encode(value) {
    const text = JSON.stringify(value);
    return text === undefined ? new Uint8Array(0) : Buffer.from(text, 'utf8');
  },
  decode(bytes, subject, part) {
    if (bytes.length === 0) return undefined;
    try {
      return JSON.parse(
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'),
      ) as unknown;
    } catch {
      throw new PayloadCheckError(subject, part, new CheckFailure('', 'must be JSON', 'unparseable bytes'));
    }
  },
};
