import type { AudioUnit, EncodedAudio } from './audio-spec';
import { stampMarker } from './take-marker';

/**
 * AAC-LC in ADTS frames, mono, 1024 samples each. Each frame holds a silent single-channel element and an
 * end element (4 bytes), then filler up to the bitrate's size; the marker opens the first frame's filler.
 */
const ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
const HEADER_BYTES = 7;
/** SCE (tag 0, gain 0, long window, max_sfb 0, no pulse/TNS/gain control) followed by END: 29 + 3 bits. */
const SILENT_BLOCK = Buffer.from([0x00, 0x00, 0x00, 0x07]);
export const AAC_FILLER_OFFSET = HEADER_BYTES + SILENT_BLOCK.length;
const SAMPLES_PER_FRAME = 1024;
const MAX_FRAME_BYTES = 8191;

export const AAC_SAMPLE_RATES: readonly number[] = ADTS_RATES;

export function encodeAac(
  sampleTotal: number,
  sampleRate: number,
  kbps: number,
  takeId: string,
): EncodedAudio {
  const rateIndex = ADTS_RATES.indexOf(sampleRate);
  if (rateIndex === -1) throw new Error(`ADTS has no ${sampleRate} Hz`);
  const frameCount = Math.max(1, Math.ceil(sampleTotal / SAMPLES_PER_FRAME));
  const exact = (kbps * 1000 * SAMPLES_PER_FRAME) / 8 / sampleRate;
  const parts: Buffer[] = [];
  const units: AudioUnit[] = [];
  let offset = 0;
  let carry = 0;
  for (let i = 0; i < frameCount; i++) {
    carry += exact;
    const payload = Math.min(MAX_FRAME_BYTES, Math.max(AAC_FILLER_OFFSET + 12, Math.floor(carry)));
    carry -= payload;
    const frame = Buffer.alloc(payload);
    writeAdtsHeader(frame, rateIndex);
    SILENT_BLOCK.copy(frame, HEADER_BYTES);
    if (i === 0) stampMarker(frame.subarray(AAC_FILLER_OFFSET), takeId);
    parts.push(frame);
    offset += frame.length;
    units.push({ end: offset, endMs: ((i + 1) * SAMPLES_PER_FRAME * 1000) / sampleRate });
  }
  return {
    bytes: Buffer.concat(parts),
    units,
    durationMs: (frameCount * SAMPLES_PER_FRAME * 1000) / sampleRate,
  };
}

function writeAdtsHeader(frame: Buffer, rateIndex: number): void {
  const length = frame.length;
  const channels = 1;
  frame[0] = 0xff;
  frame[1] = 0xf1; // sync, MPEG-4, layer 0, no CRC
  frame[2] = (1 << 6) | (rateIndex << 2) | ((channels >> 2) & 1); // profile AAC-LC (object type 2, written as 1)
  frame[3] = ((channels & 3) << 6) | ((length >> 11) & 3);
  frame[4] = (length >> 3) & 0xff;
  frame[5] = ((length & 7) << 5) | 0x1f; // buffer fullness 0x7FF (variable rate)
  frame[6] = 0xfc; // one raw data block
}

export interface AdtsFrame {
  readonly offset: number;
  readonly length: number;
  readonly profile: number;
  readonly sampleRate: number;
  readonly channels: number;
  readonly protectionAbsent: boolean;
}

/** Walks ADTS frames, checking sync and fields. Throws on a bad header. */
export function parseAdts(audio: Buffer): { frames: AdtsFrame[]; trailingBytes: number } {
  const frames: AdtsFrame[] = [];
  let offset = 0;
  while (offset + HEADER_BYTES <= audio.length) {
    const b1 = audio[offset + 1] ?? 0;
    const b2 = audio[offset + 2] ?? 0;
    const b3 = audio[offset + 3] ?? 0;
    if (audio[offset] !== 0xff || (b1 & 0xf6) !== 0xf0) throw new Error(`no ADTS sync at byte ${offset}`);
    const sampleRate = ADTS_RATES[(b2 >> 2) & 0xf];
    if (!sampleRate) throw new Error(`bad ADTS sample rate index at byte ${offset}`);
    const length = ((b3 & 3) << 11) | ((audio[offset + 4] ?? 0) << 3) | ((audio[offset + 5] ?? 0) >> 5);
    if (length < HEADER_BYTES) throw new Error(`bad ADTS frame length at byte ${offset}`);
    if (offset + length > audio.length) break;
    frames.push({
      offset,
      length,
      profile: (b2 >> 6) + 1,
      sampleRate,
      channels: ((b2 & 1) << 2) | (b3 >> 6),
      protectionAbsent: (b1 & 1) === 1,
    });
    offset += length;
  }
  return { frames, trailingBytes: audio.length - offset };
}
