import type { EncodedAudio } from './audio-spec';
import { msOf, sampleUnits } from './pcm.codec';
import { stampMarker } from './take-marker';

/** G.711 (ITU-T reference algorithm): one byte per sample, the take marker over the first 12 bytes. */
export function encodeG711(
  samples: Int16Array,
  sampleRate: number,
  law: 'mulaw' | 'alaw',
  takeId: string,
): EncodedAudio {
  const encode = law === 'mulaw' ? linearToMulaw : linearToAlaw;
  const bytes = Buffer.alloc(samples.length);
  for (let i = 0; i < samples.length; i++) bytes[i] = encode(samples[i] ?? 0);
  stampMarker(bytes, takeId);
  return {
    bytes,
    units: sampleUnits(samples.length, sampleRate, 1, 0),
    durationMs: msOf(samples.length, sampleRate),
  };
}

const SEG_U_END = [0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff, 0x1fff];
const SEG_A_END = [0x1f, 0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff];

function segment(value: number, ends: readonly number[]): number {
  const index = ends.findIndex((end) => value <= end);
  return index === -1 ? ends.length : index;
}

export function linearToMulaw(sample: number): number {
  let value = sample >> 2;
  let mask = 0xff;
  if (value < 0) {
    value = -value;
    mask = 0x7f;
  }
  value = Math.min(value, 8159) + (0x84 >> 2);
  const seg = segment(value, SEG_U_END);
  if (seg >= 8) return 0x7f ^ mask;
  return (((seg << 4) | ((value >> (seg + 1)) & 0xf)) ^ mask) & 0xff;
}

export function linearToAlaw(sample: number): number {
  let value = sample >> 3;
  let mask = 0xd5;
  if (value < 0) {
    mask = 0x55;
    value = -value - 1;
  }
  const seg = segment(value, SEG_A_END);
  if (seg >= 8) return 0x7f ^ mask;
  const mantissa = seg < 2 ? (value >> 1) & 0xf : (value >> seg) & 0xf;
  return ((seg << 4) | mantissa) ^ mask;
}

export function mulawToLinear(byte: number): number {
  const value = ~byte & 0xff;
  let t = ((value & 0xf) << 3) + 0x84;
  t <<= (value & 0x70) >> 4;
  return value & 0x80 ? 0x84 - t : t - 0x84;
}

export function alawToLinear(byte: number): number {
  const value = byte ^ 0x55;
  let t = (value & 0xf) << 4;
  const seg = (value & 0x70) >> 4;
  if (seg === 0) t += 8;
  else if (seg === 1) t += 0x108;
  else t = (t + 0x108) << (seg - 1);
  return value & 0x80 ? t : -t;
}
