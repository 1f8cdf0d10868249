import { CONTENT_TYPES, type AudioSpec, type AudioUnit, type EncodedAudio } from './audio-spec';
import { encodeAac } from './aac.codec';
import { encodeFlac } from './flac.codec';
import { encodeG711 } from './g711.codec';
import { encodeMp3 } from './mp3.codec';
import { encodeOggOpus } from './ogg-opus.codec';
import { encodePcm, encodeWav } from './pcm.codec';
import { sampleCount, toneSamples } from './sample-source';
import { newTakeId } from './take-marker';

/** The simulators' speaking rate: each character takes this long at speed 1. */
export const DEFAULT_MS_PER_CHAR = 60;

export interface CharTiming {
  readonly char: string;
  readonly startMs: number;
  readonly endMs: number;
}

/** One synthesized take: its audio in one format, where it may be cut, and when each character is spoken. */
export interface Take {
  readonly takeId: string;
  readonly spec: AudioSpec;
  readonly contentType: string;
  readonly bytes: Buffer;
  readonly units: readonly AudioUnit[];
  readonly durationMs: number;
  /** Every character of the text (by code point), spread evenly over the spoken length. */
  readonly characters: readonly CharTiming[];
}

export interface TakeOptions {
  readonly msPerChar?: number;
  /** Speaking-rate multiplier: 2 halves the length. */
  readonly speed?: number;
  /** Only for tests that need a fixed id; every real take gets a fresh random one. */
  readonly takeId?: string;
}

/** The spoken length of `text`: characters × ms per character ÷ speed (at least one millisecond). */
export function spokenMs(text: string, options: TakeOptions = {}): number {
  const chars = Array.from(text).length;
  return Math.max(1, (chars * (options.msPerChar ?? DEFAULT_MS_PER_CHAR)) / (options.speed ?? 1));
}

export function createTake(text: string, spec: AudioSpec, options: TakeOptions = {}): Take {
  const takeId = options.takeId ?? newTakeId();
  const spoken = spokenMs(text, options);
  const encoded = encode(spec, spoken, takeId);
  const chars = Array.from(text);
  const per = spoken / Math.max(1, chars.length);
  return {
    takeId,
    spec,
    contentType: CONTENT_TYPES[spec.codec],
    bytes: encoded.bytes,
    units: encoded.units,
    durationMs: encoded.durationMs,
    characters: chars.map((char, i) => ({ char, startMs: i * per, endMs: (i + 1) * per })),
  };
}

function encode(spec: AudioSpec, spoken: number, takeId: string): EncodedAudio {
  const count = sampleCount(spoken, spec.sampleRate);
  const kbps = spec.bitrateKbps ?? 128;
  switch (spec.codec) {
    case 'pcm':
      return encodePcm(toneSamples(count, spec.sampleRate, takeId), spec.sampleRate, takeId);
    case 'wav':
      return encodeWav(toneSamples(count, spec.sampleRate, takeId), spec.sampleRate, takeId);
    case 'mulaw':
    case 'alaw':
      return encodeG711(toneSamples(count, spec.sampleRate, takeId), spec.sampleRate, spec.codec, takeId);
    case 'flac':
      return encodeFlac(toneSamples(count, spec.sampleRate, takeId), spec.sampleRate, takeId);
    case 'mp3':
      return encodeMp3(count, spec.sampleRate, kbps, takeId, { id3: spec.id3 === true });
    case 'aac':
      return encodeAac(count, spec.sampleRate, kbps, takeId);
    case 'opus':
      return encodeOggOpus(spoken, spec.sampleRate, kbps, takeId);
  }
}

export interface TakePiece {
  readonly bytes: Buffer;
  /** Playback time at which this piece's audio starts and ends. */
  readonly startMs: number;
  readonly endMs: number;
  readonly index: number;
  readonly last: boolean;
}

/** The take cut into pieces of at least `chunkMs` of audio each, at unit boundaries. */
export function takePieces(take: Take, chunkMs: number): TakePiece[] {
  const pieces: TakePiece[] = [];
  let start = 0;
  let startMs = 0;
  take.units.forEach((unit, i) => {
    const isLast = i === take.units.length - 1;
    if (unit.endMs - startMs < chunkMs && !isLast) return;
    pieces.push({
      bytes: take.bytes.subarray(start, unit.end),
      startMs,
      endMs: unit.endMs,
      index: pieces.length,
      last: isLast,
    });
    start = unit.end;
    startMs = unit.endMs;
  });
  return pieces;
}
