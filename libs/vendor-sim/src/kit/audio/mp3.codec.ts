import type { AudioUnit, EncodedAudio } from './audio-spec';
import { stampMarker } from './take-marker';

/**
 * MPEG audio Layer III frames, mono, with valid headers (sync word, version, bitrate and sample-rate indices,
 * padding) and all-zero side information, so a decoder plays silence; the rest of each frame is ancillary
 * filler. The take marker opens the first frame's filler.
 */
type MpegVersion = 'mpeg1' | 'mpeg2' | 'mpeg2.5';

const VERSION_BITS: Readonly<Record<MpegVersion, number>> = { mpeg1: 0b11, mpeg2: 0b10, 'mpeg2.5': 0b00 };
const RATES: Readonly<Record<MpegVersion, readonly number[]>> = {
  mpeg1: [44100, 48000, 32000],
  mpeg2: [22050, 24000, 16000],
  'mpeg2.5': [11025, 12000, 8000],
};
const BITRATES: Readonly<Record<'v1' | 'v2', readonly number[]>> = {
  v1: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};

export const MP3_SAMPLE_RATES: readonly number[] = [...RATES.mpeg1, ...RATES.mpeg2, ...RATES['mpeg2.5']];

function versionOf(sampleRate: number): MpegVersion {
  for (const version of ['mpeg1', 'mpeg2', 'mpeg2.5'] as const) {
    if (RATES[version].includes(sampleRate)) return version;
  }
  throw new Error(`mp3 has no ${sampleRate} Hz`);
}

function bitrateTable(version: MpegVersion): readonly number[] {
  return version === 'mpeg1' ? BITRATES.v1 : BITRATES.v2;
}

/** The bitrate a frame at `sampleRate` can carry closest to `requestedKbps` (the largest not above it). */
export function mp3Bitrate(sampleRate: number, requestedKbps: number): number {
  const table = bitrateTable(versionOf(sampleRate)).slice(1);
  const fits = table.filter((rate) => rate <= requestedKbps);
  return fits.length > 0 ? Math.max(...fits) : Math.min(...table);
}

export function mp3SamplesPerFrame(sampleRate: number): number {
  return versionOf(sampleRate) === 'mpeg1' ? 1152 : 576;
}

function sideInfoBytes(version: MpegVersion): number {
  return version === 'mpeg1' ? 17 : 9;
}

/** Bytes per frame before padding, as a fraction: 144 (MPEG-1) or 72 (MPEG-2/2.5) × bitrate / rate. */
function exactFrameBytes(version: MpegVersion, kbps: number, sampleRate: number): number {
  return ((version === 'mpeg1' ? 144000 : 72000) * kbps) / sampleRate;
}

export function encodeMp3(
  sampleTotal: number,
  sampleRate: number,
  requestedKbps: number,
  takeId: string,
  options: { id3?: boolean } = {},
): EncodedAudio {
  const version = versionOf(sampleRate);
  const kbps = mp3Bitrate(sampleRate, requestedKbps);
  const perFrame = mp3SamplesPerFrame(sampleRate);
  const frameCount = Math.max(1, Math.ceil(sampleTotal / perFrame));
  const exact = exactFrameBytes(version, kbps, sampleRate);
  const base = Math.floor(exact);
  const tag = options.id3 ? id3Tag() : Buffer.alloc(0);
  const parts: Buffer[] = [tag];
  const units: AudioUnit[] = [];
  let offset = tag.length;
  let carry = 0;
  for (let i = 0; i < frameCount; i++) {
    // Padding spreads the fractional byte over frames so the average bitrate is exact, as encoders do.
    carry += exact - base;
    const padding = carry >= 1 ? 1 : 0;
    carry -= padding;
    const frame = Buffer.alloc(base + padding);
    writeHeader(frame, version, kbps, sampleRate, padding);
    if (i === 0) stampMarker(frame.subarray(4 + sideInfoBytes(version)), takeId);
    parts.push(frame);
    offset += frame.length;
    units.push({ end: offset, endMs: ((i + 1) * perFrame * 1000) / sampleRate });
  }
  return { bytes: Buffer.concat(parts), units, durationMs: (frameCount * perFrame * 1000) / sampleRate };
}

function writeHeader(
  frame: Buffer,
  version: MpegVersion,
  kbps: number,
  sampleRate: number,
  padding: number,
): void {
  const bitrateIndex = bitrateTable(version).indexOf(kbps);
  const rateIndex = RATES[version].indexOf(sampleRate);
  frame[0] = 0xff;
  // Sync (3 more bits), version, layer III (01), no CRC (1).
  frame[1] = 0xe0 | (VERSION_BITS[version] << 3) | (0b01 << 1) | 1;
  frame[2] = (bitrateIndex << 4) | (rateIndex << 2) | (padding << 1);
  // Mono (11), no mode extension, not copyrighted, original, no emphasis.
  frame[3] = 0b11000100;
}

/** An ID3v2.4 tag naming the encoder, as vendor_c puts at the start of each MP3 stream. */
export function id3Tag(): Buffer {
  const text = Buffer.from('\x03vendor-sim', 'latin1');
  const frame = Buffer.concat([Buffer.from('TSSE', 'latin1'), syncsafe(text.length), Buffer.alloc(2), text]);
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 4, 0, 0]), syncsafe(frame.length), frame]);
}

function syncsafe(value: number): Buffer {
  return Buffer.from([(value >> 21) & 0x7f, (value >> 14) & 0x7f, (value >> 7) & 0x7f, value & 0x7f]);
}

/** Length of a leading ID3v2 tag (header, body and footer), or 0 when there is none. */
export function id3Length(audio: Buffer): number {
  if (audio.length < 10 || audio.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size = ((audio[6] ?? 0) << 21) | ((audio[7] ?? 0) << 14) | ((audio[8] ?? 0) << 7) | (audio[9] ?? 0);
  const footer = ((audio[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

export interface Mp3Frame {
  readonly offset: number;
  readonly length: number;
  readonly version: MpegVersion;
  readonly layer: number;
  readonly bitrateKbps: number;
  readonly sampleRate: number;
  readonly padding: boolean;
  readonly channelMode: number;
  readonly samples: number;
}

export interface Mp3Parse {
  readonly id3Bytes: number;
  readonly frames: readonly Mp3Frame[];
  /** Bytes after the last whole frame (0 for a complete take). */
  readonly trailingBytes: number;
}

/** Walks MPEG audio frames from the start (after any ID3v2 tag), checking every header. Throws on a bad one. */
export function parseMp3(audio: Buffer): Mp3Parse {
  const id3Bytes = id3Length(audio);
  const frames: Mp3Frame[] = [];
  let offset = id3Bytes;
  while (offset + 4 <= audio.length) {
    const frame = parseMp3Header(audio, offset);
    if (offset + frame.length > audio.length) break;
    frames.push(frame);
    offset += frame.length;
  }
  return { id3Bytes, frames, trailingBytes: audio.length - offset };
}

export function parseMp3Header(audio: Buffer, offset: number): Mp3Frame {
  const b1 = audio[offset + 1] ?? 0;
  const b2 = audio[offset + 2] ?? 0;
  const b3 = audio[offset + 3] ?? 0;
  if (audio[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) throw new Error(`no MPEG frame sync at byte ${offset}`);
  const versionBits = (b1 >> 3) & 3;
  const version = (['mpeg2.5', undefined, 'mpeg2', 'mpeg1'] as const)[versionBits];
  if (!version) throw new Error(`reserved MPEG version at byte ${offset}`);
  const layer = 4 - ((b1 >> 1) & 3);
  const bitrateKbps = bitrateTable(version)[b2 >> 4];
  const sampleRate = RATES[version][(b2 >> 2) & 3];
  if (layer !== 3 || !bitrateKbps || !sampleRate)
    throw new Error(`invalid MPEG Layer III header at byte ${offset}`);
  const padding = ((b2 >> 1) & 1) === 1;
  return {
    offset,
    length: Math.floor(exactFrameBytes(version, bitrateKbps, sampleRate)) + (padding ? 1 : 0),
    version,
    layer,
    bitrateKbps,
    sampleRate,
    padding,
    channelMode: b3 >> 6,
    samples: version === 'mpeg1' ? 1152 : 576,
  };
}

/** Where the first frame's filler starts (after any ID3 tag, the header and the side information). */
export function mp3FillerOffset(audio: Buffer): number {
  const start = id3Length(audio);
  const frame = parseMp3Header(audio, start);
  return start + 4 + sideInfoBytes(frame.version);
}
