/*
 * Whether a take's audio is whole: what its format says (a WAV header's sizes, an Ogg stream's last page, MPEG
 * and ADTS frames that end where the body ends, a FLAC stream's last frame and sample count, whole raw samples),
 * and a bound on how little audio a text may have. A body that ended early but cleanly (a vendor or a proxy
 * ending it as a whole one would) passes every framing check but these, so a take is stored only once they
 * say it is whole. One copy for sentence takes (the worker) and whole-request takes (a drop-in wire's reading).
 */

/**
 * How a vendor's audio is laid out. `samples`: raw samples with nothing that says where they end (PCM, G.711);
 * the self-describing containers carry their own rate; `unknown`: nothing here can tell (the take is played and
 * never stored).
 */
export type AudioLayout =
  | {
      readonly kind: 'samples';
      readonly sampleRate: number;
      /** Bytes of one sample of every channel (2 for 16-bit mono PCM, 1 for G.711, 4 for 32-bit float). */
      readonly frameBytes: number;
    }
  | { readonly kind: 'wav' | 'mpeg' | 'adts' | 'ogg' | 'flac' }
  | { readonly kind: 'unknown' };

/** What a take's audio is checked against: its layout and the least audio its text can have. */
export interface AudioExpectation {
  readonly layout: AudioLayout;
  /** The least a whole take of the text plays, in ms (`leastSpokenMs`); 0 checks the format alone. */
  readonly leastMs: number;
}

/**
 * The verdict on a take's audio: `whole`; `short`, the format or the bound says it ended early (the take failed,
 * though its body ended cleanly); `unknown`, nothing can tell (played, never stored).
 */
export type AudioCheck =
  | { readonly verdict: 'whole'; readonly ms: number | null }
  | { readonly verdict: 'short' | 'unknown'; readonly reason: string };

/** The router's words for why audio is not known whole (logged; never anything of the vendor's). */
export const AUDIO_NOT_WHOLE = Object.freeze({
  unknown: 'nothing in the format tells whether the audio is whole',
  partialSample: 'the audio ends inside a sample',
  partialFrame: 'the audio ends inside a frame',
  notFrames: 'the audio is not frames of its format',
  wavShort: 'the WAV file holds fewer samples than its header gives',
  noHeader: 'the audio ends inside its header',
  noLastPage: 'the Ogg stream ends before its last page',
  flacShort: 'the FLAC stream holds fewer samples than its header gives',
  tooShort: 'the audio is shorter than its text can be spoken',
});

/**
 * The fastest any catalogue voice speaks at speed 1, in letters and digits a second. Fluent speech runs at 12 to
 * 18; the margin covers the fastest voices and pace set by instructions or a voice's stored settings.
 */
export const FASTEST_LETTERS_PER_SECOND = 30;

const SPOKEN = /[\p{L}\p{N}]/gu;

/**
 * The least audio a whole take of `text` can have, in ms: its letters and digits (punctuation and spaces may be
 * silent, marks ride on their letters) at the fastest rate of the catalogue's voices, sped up by the fastest
 * speed the vendor's catalogue allows (`fastestSpeed`, 1 where it has none).
 */
export function leastSpokenMs(text: string, fastestSpeed: number): number {
  const letters = text.match(SPOKEN)?.length ?? 0;
  return (letters * 1000) / (FASTEST_LETTERS_PER_SECOND * Math.max(1, fastestSpeed));
}

/** The layout of the router's format names (`SynthSettings.format`); a vendor's own names are its adapter's. */
export function layoutOfFormat(format: string, sampleRate: number): AudioLayout {
  switch (format) {
    case 'pcm':
      return { kind: 'samples', sampleRate, frameBytes: 2 };
    case 'mulaw':
    case 'alaw':
      return { kind: 'samples', sampleRate, frameBytes: 1 };
    case 'wav':
      return { kind: 'wav' };
    case 'mp3':
      return { kind: 'mpeg' };
    case 'aac':
      return { kind: 'adts' };
    case 'opus':
      return { kind: 'ogg' };
    case 'flac':
      return { kind: 'flac' };
    default:
      return { kind: 'unknown' };
  }
}

/** What a format reader found: whole with its length in ms (null where it does not say), or why not. */
type Reading = { whole: true; ms: number | null } | { whole: false; reason: string };

const ended = (reason: string): Reading => ({ whole: false, reason });

/** Checks a take's whole audio against what its format says and the least its text can have. */
export function checkAudio(audio: Buffer, expected: AudioExpectation): AudioCheck {
  const { layout } = expected;
  if (layout.kind === 'unknown') return { verdict: 'unknown', reason: AUDIO_NOT_WHOLE.unknown };
  const read = readLayout(audio, layout);
  if (!read.whole) return { verdict: 'short', reason: read.reason };
  if (read.ms !== null && read.ms < expected.leastMs) {
    return { verdict: 'short', reason: AUDIO_NOT_WHOLE.tooShort };
  }
  return { verdict: 'whole', ms: read.ms };
}

function readLayout(audio: Buffer, layout: Exclude<AudioLayout, { kind: 'unknown' }>): Reading {
  switch (layout.kind) {
    case 'samples':
      return readSamples(audio.length, layout.frameBytes, layout.sampleRate);
    case 'wav':
      return readWav(audio);
    case 'mpeg':
      return readMpeg(audio);
    case 'adts':
      return readAdts(audio);
    case 'ogg':
      return readOgg(audio);
    case 'flac':
      return readFlac(audio);
  }
}

function readSamples(bytes: number, frameBytes: number, sampleRate: number): Reading {
  if (bytes % frameBytes !== 0) return ended(AUDIO_NOT_WHOLE.partialSample);
  return { whole: true, ms: (bytes / frameBytes / sampleRate) * 1000 };
}

/** The sizes a streaming WAV writer leaves open while the length is unknown. */
const OPEN_WAV_SIZES: ReadonlySet<number> = new Set([0, 0xffffffff]);

/**
 * RIFF/WAVE: whole when its `data` chunk holds the bytes its size gives; a size left open (streaming writers)
 * says nothing, so the samples must then be whole (`fmt `'s block size) and long enough.
 */
function readWav(audio: Buffer): Reading {
  if (audio.length < 12) return ended(AUDIO_NOT_WHOLE.noHeader);
  if (audio.toString('latin1', 0, 4) !== 'RIFF' || audio.toString('latin1', 8, 12) !== 'WAVE') {
    return ended(AUDIO_NOT_WHOLE.notFrames);
  }
  let byteRate = 0;
  let blockAlign = 0;
  let offset = 12;
  while (offset + 8 <= audio.length) {
    const id = audio.toString('latin1', offset, offset + 4);
    const size = audio.readUInt32LE(offset + 4);
    const start = offset + 8;
    if (id === 'fmt ' && start + 16 <= audio.length) {
      byteRate = audio.readUInt32LE(start + 8);
      blockAlign = audio.readUInt16LE(start + 12);
    }
    if (id === 'data') {
      const held = audio.length - start;
      const dataBytes = OPEN_WAV_SIZES.has(size) ? held : size;
      if (held < dataBytes) return ended(AUDIO_NOT_WHOLE.wavShort);
      if (blockAlign > 0 && dataBytes % blockAlign !== 0) return ended(AUDIO_NOT_WHOLE.partialSample);
      return { whole: true, ms: byteRate > 0 ? (dataBytes / byteRate) * 1000 : null };
    }
    offset = start + size + (size % 2);
  }
  return ended(AUDIO_NOT_WHOLE.noHeader);
}

const MPEG_RATES: Readonly<Record<number, readonly number[]>> = {
  3: [44100, 48000, 32000], // MPEG-1
  2: [22050, 24000, 16000], // MPEG-2
  0: [11025, 12000, 8000], // MPEG-2.5
};
// prettier-ignore
const MPEG_KBPS: Readonly<Record<string, readonly number[]>> = {
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};

/** One MPEG audio frame's length and samples, from its 4-byte header; null where it is no frame header. */
function mpegFrame(audio: Buffer, at: number): { bytes: number; samples: number; rate: number } | null {
  if (at + 4 > audio.length) return null;
  const b1 = audio[at + 1] ?? 0;
  const b2 = audio[at + 2] ?? 0;
  if (audio[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 0b11;
  const layerBits = (b1 >> 1) & 0b11;
  if (version === 1 || layerBits === 0) return null;
  const layer = 4 - layerBits;
  const bitrate = MPEG_KBPS[`${version === 3 ? 1 : 2}-${layer}`]?.[(b2 >> 4) & 0x0f];
  const rate = MPEG_RATES[version]?.[(b2 >> 2) & 0b11];
  if (!bitrate || !rate) return null;
  const padding = (b2 >> 1) & 1;
  if (layer === 1) return { bytes: (Math.floor((12000 * bitrate) / rate) + padding) * 4, samples: 384, rate };
  const perFrame = layer === 3 && version !== 3 ? 576 : 1152;
  const bytes = Math.floor(((perFrame / 8) * 1000 * bitrate) / rate) + padding;
  return { bytes, samples: perFrame, rate };
}

/**
 * MPEG audio (MP3): an ID3v2 tag may lead and an ID3v1 tag may trail; between them frames follow each other
 * and the last one ends where the body ends.
 */
function readMpeg(audio: Buffer): Reading {
  let offset = 0;
  if (audio.length >= 10 && audio.toString('latin1', 0, 3) === 'ID3') {
    const size = ((audio[6] ?? 0) << 21) | ((audio[7] ?? 0) << 14) | ((audio[8] ?? 0) << 7) | (audio[9] ?? 0);
    offset = 10 + size + ((audio[5] ?? 0) & 0x10 ? 10 : 0);
    if (offset > audio.length) return ended(AUDIO_NOT_WHOLE.noHeader);
  }
  const end =
    audio.length - offset >= 128 && audio.toString('latin1', audio.length - 128, audio.length - 125) === 'TAG'
      ? audio.length - 128
      : audio.length;
  let ms = 0;
  let frames = 0;
  while (offset < end) {
    const frame = mpegFrame(audio, offset);
    if (!frame) return ended(end - offset < 4 ? AUDIO_NOT_WHOLE.partialFrame : AUDIO_NOT_WHOLE.notFrames);
    if (offset + frame.bytes > end) return ended(AUDIO_NOT_WHOLE.partialFrame);
    offset += frame.bytes;
    ms += (frame.samples / frame.rate) * 1000;
    frames++;
  }
  return frames === 0 ? ended(AUDIO_NOT_WHOLE.notFrames) : { whole: true, ms };
}

const ADTS_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** AAC in ADTS frames: each header gives its frame's length; the last frame ends where the body ends. */
function readAdts(audio: Buffer): Reading {
  let offset = 0;
  let ms = 0;
  while (offset < audio.length) {
    if (offset + 7 > audio.length) return ended(AUDIO_NOT_WHOLE.partialFrame);
    if (audio[offset] !== 0xff || ((audio[offset + 1] ?? 0) & 0xf6) !== 0xf0) {
      return ended(AUDIO_NOT_WHOLE.notFrames);
    }
    const rate = ADTS_RATES[((audio[offset + 2] ?? 0) >> 2) & 0x0f];
    const length =
      (((audio[offset + 3] ?? 0) & 0x03) << 11) |
      ((audio[offset + 4] ?? 0) << 3) |
      ((audio[offset + 5] ?? 0) >> 5);
    if (!rate || length < 7) return ended(AUDIO_NOT_WHOLE.notFrames);
    if (offset + length > audio.length) return ended(AUDIO_NOT_WHOLE.partialFrame);
    const blocks = ((audio[offset + 6] ?? 0) & 0x03) + 1;
    ms += ((blocks * 1024) / rate) * 1000;
    offset += length;
  }
  return offset === 0 ? ended(AUDIO_NOT_WHOLE.notFrames) : { whole: true, ms };
}

/**
 * Ogg (Opus): pages follow each other, the last one whole and marked as the stream's end (its flag says so); its
 * granule position is the stream's length in 48 kHz samples (Opus), less the pre-skip its head gives.
 */
function readOgg(audio: Buffer): Reading {
  let offset = 0;
  let lastGranule = 0n;
  let endOfStream = false;
  let preSkip = 0;
  let opus = false;
  while (offset < audio.length) {
    if (offset + 27 > audio.length) return ended(AUDIO_NOT_WHOLE.partialFrame);
    if (audio.toString('latin1', offset, offset + 4) !== 'OggS') return ended(AUDIO_NOT_WHOLE.notFrames);
    const segments = audio[offset + 26] ?? 0;
    if (offset + 27 + segments > audio.length) return ended(AUDIO_NOT_WHOLE.partialFrame);
    let body = 0;
    for (let i = 0; i < segments; i++) body += audio[offset + 27 + i] ?? 0;
    const start = offset + 27 + segments;
    if (start + body > audio.length) return ended(AUDIO_NOT_WHOLE.partialFrame);
    if (offset === 0 && body >= 19 && audio.toString('latin1', start, start + 8) === 'OpusHead') {
      opus = true;
      preSkip = audio.readUInt16LE(start + 10);
    }
    endOfStream = ((audio[offset + 5] ?? 0) & 0x04) !== 0;
    const granule = audio.readBigInt64LE(offset + 6);
    if (granule >= 0n) lastGranule = granule;
    offset = start + body;
  }
  if (offset === 0) return ended(AUDIO_NOT_WHOLE.notFrames);
  if (!endOfStream) return ended(AUDIO_NOT_WHOLE.noLastPage);
  return { whole: true, ms: opus ? (Math.max(0, Number(lastGranule) - preSkip) / 48000) * 1000 : null };
}

const FLAC_BLOCK_SIZES: Readonly<Record<number, number>> = {
  1: 192,
  2: 576,
  3: 1152,
  4: 2304,
  5: 4608,
  8: 256,
  9: 512,
  10: 1024,
  11: 2048,
  12: 4096,
  13: 8192,
  14: 16384,
  15: 32768,
};

function crc8(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

function crc16(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** A FLAC frame header at `at` (its CRC-8 checked): the frame's number (or first sample) and block size. */
function flacFrameHeader(audio: Buffer, at: number): { number: number; samples: number } | null {
  if (audio[at] !== 0xff || ((audio[at + 1] ?? 0) & 0xfe) !== 0xf8) return null;
  const sizeCode = (audio[at + 2] ?? 0) >> 4;
  const rateCode = (audio[at + 2] ?? 0) & 0x0f;
  let offset = at + 4;
  const first = audio[offset] ?? 0xff;
  let extra = 0;
  while (extra < 8 && first & (0x80 >> extra)) extra++;
  if (extra === 1 || extra === 8) return null;
  let number = extra === 0 ? first : first & (0xff >> (extra + 1));
  for (let i = 1; i < extra; i++) number = number * 64 + ((audio[offset + i] ?? 0) & 0x3f);
  offset += Math.max(1, extra);
  let samples = FLAC_BLOCK_SIZES[sizeCode];
  if (sizeCode === 6) samples = (audio[offset++] ?? 0) + 1;
  else if (sizeCode === 7) {
    samples = ((audio[offset] ?? 0) << 8) + (audio[offset + 1] ?? 0) + 1;
    offset += 2;
  }
  if (rateCode === 12) offset += 1;
  else if (rateCode === 13 || rateCode === 14) offset += 2;
  if (samples === undefined || offset >= audio.length) return null;
  if (crc8(audio.subarray(at, offset)) !== audio[offset]) return null;
  return { number, samples };
}

/** How far back from the end a FLAC reading looks for the start of the last frame. */
const FLAC_LAST_FRAME_SEARCH = 1 << 20;

/**
 * FLAC: STREAMINFO gives the rate, the block size and (where the writer knew it) the total samples; the last
 * frame is whole when its CRC-16 holds to the body's end, and the stream is whole when that frame ends the
 * samples STREAMINFO gives.
 */
function readFlac(audio: Buffer): Reading {
  if (audio.length < 42) return ended(AUDIO_NOT_WHOLE.noHeader);
  if (audio.toString('latin1', 0, 4) !== 'fLaC') return ended(AUDIO_NOT_WHOLE.notFrames);
  // STREAMINFO is the first metadata block: min and max block size, then rate (20 bits) and total (36 bits).
  const maxBlock = audio.readUInt16BE(10);
  const packed = audio.readBigUInt64BE(18);
  const rate = Number(packed >> 44n);
  const total = Number(packed & 0xfffffffffn);
  let offset = 4;
  for (;;) {
    if (offset + 4 > audio.length) return ended(AUDIO_NOT_WHOLE.noHeader);
    const last = ((audio[offset] ?? 0) & 0x80) !== 0;
    offset += 4 + audio.readUIntBE(offset + 1, 3);
    if (last) break;
  }
  if (offset >= audio.length) return ended(AUDIO_NOT_WHOLE.partialFrame);
  const stored = audio.readUInt16BE(audio.length - 2);
  const floor = Math.max(offset, audio.length - FLAC_LAST_FRAME_SEARCH);
  // The last frame header (its CRC-8 holds) must start a frame whose CRC-16 holds to the end; one found in
  // sample data by chance fails it, and the take is then not stored: the safe side.
  for (let at = audio.length - 4; at >= floor; at--) {
    const header = flacFrameHeader(audio, at);
    if (!header) continue;
    if (crc16(audio.subarray(at, audio.length - 2)) !== stored) return ended(AUDIO_NOT_WHOLE.partialFrame);
    const variable = ((audio[at + 1] ?? 0) & 0x01) === 1;
    const end = (variable ? header.number : header.number * maxBlock) + header.samples;
    if (total > 0 && end < total) return ended(AUDIO_NOT_WHOLE.flacShort);
    return { whole: true, ms: rate > 0 ? (end / rate) * 1000 : null };
  }
  return ended(AUDIO_NOT_WHOLE.partialFrame);
}

/** What a take of `text` in `layout` is checked against, with the bound of the vendor's fastest catalogue speed. */
export function expectedAudio(
  vendor: { readonly catalogue: { readonly speed: { readonly max: number } | null } },
  layout: AudioLayout,
  text: string,
): AudioExpectation {
  return { layout, leastMs: leastSpokenMs(text, vendor.catalogue.speed?.max ?? 1) };
}
