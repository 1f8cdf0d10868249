import type { AudioUnit, EncodedAudio } from './audio-spec';
import { msOf } from './pcm.codec';
import { takeTextMarker } from './take-marker';

/**
 * FLAC with verbatim subframes (no compression, but a stream any decoder plays): STREAMINFO, a
 * VORBIS_COMMENT block holding the take marker, then fixed-blocksize frames with CRC-8 and CRC-16.
 */
const BLOCK = 4096;
const RATE_CODES: Readonly<Record<number, number>> = {
  8000: 4,
  16000: 5,
  22050: 6,
  24000: 7,
  32000: 8,
  44100: 9,
  48000: 10,
};

export function encodeFlac(samples: Int16Array, sampleRate: number, takeId: string): EncodedAudio {
  const head = Buffer.concat([
    Buffer.from('fLaC', 'latin1'),
    streamInfo(samples.length, sampleRate),
    vorbisComment(takeId),
  ]);
  const parts: Buffer[] = [head];
  const units: AudioUnit[] = [];
  let offset = head.length;
  for (let index = 0, start = 0; start < samples.length; index++, start += BLOCK) {
    const frame = flacFrame(
      samples.subarray(start, Math.min(samples.length, start + BLOCK)),
      sampleRate,
      index,
    );
    parts.push(frame);
    offset += frame.length;
    units.push({ end: offset, endMs: msOf(Math.min(samples.length, start + BLOCK), sampleRate) });
  }
  return { bytes: Buffer.concat(parts), units, durationMs: msOf(samples.length, sampleRate) };
}

function streamInfo(total: number, sampleRate: number): Buffer {
  const block = Buffer.alloc(4 + 34);
  block.writeUInt32BE(34, 0); // not last, type 0 (STREAMINFO), length 34
  block.writeUInt16BE(BLOCK, 4);
  block.writeUInt16BE(BLOCK, 6);
  // min/max frame size (3 bytes each) left 0 = unknown
  const packed = (BigInt(sampleRate) << 44n) | (0n << 41n) | (15n << 36n) | BigInt(total);
  block.writeBigUInt64BE(packed, 14);
  // MD5 left 0 = not computed
  return block;
}

function vorbisComment(takeId: string): Buffer {
  const vendor = Buffer.from('vendor-sim', 'utf8');
  const comment = Buffer.from(takeTextMarker(takeId), 'utf8');
  const body = Buffer.alloc(4 + vendor.length + 4 + 4 + comment.length);
  body.writeUInt32LE(vendor.length, 0);
  vendor.copy(body, 4);
  body.writeUInt32LE(1, 4 + vendor.length);
  body.writeUInt32LE(comment.length, 8 + vendor.length);
  comment.copy(body, 12 + vendor.length);
  const header = Buffer.alloc(4);
  header.writeUInt32BE((0x80 | 4) * 0x1000000 + body.length, 0); // last block, type 4 (VORBIS_COMMENT)
  return Buffer.concat([header, body]);
}

function flacFrame(samples: Int16Array, sampleRate: number, index: number): Buffer {
  const full = samples.length === BLOCK;
  const rateCode = RATE_CODES[sampleRate] ?? 12;
  const header: number[] = [
    0xff,
    0xf8,
    ((full ? 12 : 7) << 4) | rateCode,
    (0 << 4) | (0b100 << 1),
    ...utf8Number(index),
  ];
  if (!full) header.push(((samples.length - 1) >> 8) & 0xff, (samples.length - 1) & 0xff);
  if (rateCode === 12) header.push(Math.round(sampleRate / 1000));
  header.push(crc8(header));
  const body = Buffer.alloc(1 + samples.length * 2);
  body[0] = 0b00000010; // verbatim subframe, no wasted bits
  for (let i = 0; i < samples.length; i++) body.writeInt16BE(samples[i] ?? 0, 1 + i * 2);
  const frame = Buffer.concat([Buffer.from(header), body, Buffer.alloc(2)]);
  frame.writeUInt16BE(crc16(frame.subarray(0, frame.length - 2)), frame.length - 2);
  return frame;
}

function utf8Number(value: number): number[] {
  if (value < 0x80) return [value];
  if (value < 0x800) return [0xc0 | (value >> 6), 0x80 | (value & 0x3f)];
  if (value < 0x10000) return [0xe0 | (value >> 12), 0x80 | ((value >> 6) & 0x3f), 0x80 | (value & 0x3f)];
  return [
    0xf0 | (value >> 18),
    0x80 | ((value >> 12) & 0x3f),
    0x80 | ((value >> 6) & 0x3f),
    0x80 | (value & 0x3f),
  ];
}

export function crc8(bytes: Iterable<number>): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

export function crc16(bytes: Iterable<number>): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

export interface FlacStreamInfo {
  readonly sampleRate: number;
  readonly channels: number;
  readonly bitsPerSample: number;
  readonly totalSamples: number;
}

/** Reads the STREAMINFO block of a FLAC stream. Throws when the stream does not start with one. */
export function parseFlacStreamInfo(audio: Buffer): FlacStreamInfo {
  if (audio.toString('latin1', 0, 4) !== 'fLaC' || ((audio[4] ?? 0) & 0x7f) !== 0)
    throw new Error('not a FLAC stream');
  const packed = audio.readBigUInt64BE(18);
  return {
    sampleRate: Number(packed >> 44n),
    channels: Number((packed >> 41n) & 7n) + 1,
    bitsPerSample: Number((packed >> 36n) & 31n) + 1,
    totalSamples: Number(packed & 0xfffffffffn),
  };
}
