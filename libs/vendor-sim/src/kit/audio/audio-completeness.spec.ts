import { AUDIO_NOT_WHOLE, checkAudio, layoutOfFormat, leastSpokenMs } from '@router/vendors-core';
import type { AudioSpec } from './audio-spec';
import { createTake, takePieces } from './take';

/**
 * The router's completeness check (libs/vendors/core `checkAudio`) against the simulator's encoders, written
 * apart from it: every whole take is whole; one ended early, at a frame's end as a vendor ending its body
 * cleanly would, or inside one, is not.
 */
const TEXT = 'A sentence of some length, spoken whole by the simulated vendor.';

const SPECS: readonly AudioSpec[] = [
  { codec: 'pcm', sampleRate: 16000 },
  { codec: 'pcm', sampleRate: 24000 },
  { codec: 'wav', sampleRate: 22050 },
  { codec: 'mulaw', sampleRate: 8000 },
  { codec: 'alaw', sampleRate: 8000 },
  { codec: 'mp3', sampleRate: 44100, bitrateKbps: 128 },
  { codec: 'mp3', sampleRate: 22050, bitrateKbps: 32, id3: true },
  { codec: 'mp3', sampleRate: 8000, bitrateKbps: 16 },
  { codec: 'aac', sampleRate: 24000, bitrateKbps: 64 },
  { codec: 'opus', sampleRate: 48000, bitrateKbps: 32 },
  { codec: 'flac', sampleRate: 16000 },
  { codec: 'flac', sampleRate: 44100 },
];

const label = (spec: AudioSpec): string => `${spec.codec} ${spec.sampleRate}${spec.id3 ? ' id3' : ''}`;

describe('checkAudio against the simulated takes', () => {
  const expected = (spec: AudioSpec, speed = 1) => ({
    layout: layoutOfFormat(spec.codec, spec.sampleRate),
    leastMs: leastSpokenMs(TEXT, speed),
  });

  it.each(SPECS.map((spec) => [label(spec), spec] as const))('%s: a whole take is whole', (_, spec) => {
    const take = createTake(TEXT, spec);
    expect(checkAudio(take.bytes, expected(spec))).toEqual({ verdict: 'whole', ms: expect.any(Number) });
    // At twice the speed (a vendor whose catalogue allows 2.0), still above the bound.
    const fast = createTake(TEXT, spec, { speed: 2 });
    expect(checkAudio(fast.bytes, expected(spec, 2)).verdict).toBe('whole');
  });

  /** Formats that say where they end: a header's sizes, frames, pages (raw samples say only their size). */
  const framed = (spec: AudioSpec): boolean => !['pcm', 'mulaw', 'alaw'].includes(spec.codec);

  it.each(SPECS.map((spec) => [label(spec), spec] as const))(
    '%s: a take ended early is short, at a frame end with less audio than its text needs, or inside a frame',
    (_, spec) => {
      const take = createTake(TEXT, spec);
      const pieces = takePieces(take, 100);
      expect(pieces.length).toBeGreaterThan(2);
      const bound = expected(spec).leastMs;
      let end = 0;
      const verdicts: string[] = [];
      for (const piece of pieces.slice(0, -1)) {
        end += piece.bytes.length;
        // A clean end at a frame's end: only its length can tell, unless the format says how long it is.
        if (framed(spec) && spec.codec !== 'mp3' && spec.codec !== 'aac') {
          verdicts.push(checkAudio(take.bytes.subarray(0, end), expected(spec)).verdict);
        } else if (piece.endMs < bound) {
          verdicts.push(checkAudio(take.bytes.subarray(0, end), expected(spec)).verdict);
        }
        // Inside a frame (or a 16-bit sample): the format tells.
        if (framed(spec) || spec.codec === 'pcm') {
          verdicts.push(checkAudio(take.bytes.subarray(0, end - 1), expected(spec)).verdict);
        }
      }
      expect(verdicts.length).toBeGreaterThan(0);
      expect([...new Set(verdicts)]).toEqual(['short']);
    },
  );

  it('names why: a frame cut, samples missing from a WAV file, a last Ogg page missing, too little audio', () => {
    const reason = (spec: AudioSpec, keep: (bytes: Buffer) => Buffer) => {
      const check = checkAudio(keep(createTake(TEXT, spec).bytes), expected(spec));
      return check.verdict === 'whole' ? 'whole' : check.reason;
    };
    const mp3 = SPECS[5];
    expect(reason(mp3, (b) => b.subarray(0, b.length - 10))).toBe(AUDIO_NOT_WHOLE.partialFrame);
    expect(reason({ codec: 'wav', sampleRate: 16000 }, (b) => b.subarray(0, 3000))).toBe(
      AUDIO_NOT_WHOLE.wavShort,
    );
    expect(reason({ codec: 'pcm', sampleRate: 16000 }, (b) => b.subarray(0, 3001))).toBe(
      AUDIO_NOT_WHOLE.partialSample,
    );
    expect(reason({ codec: 'pcm', sampleRate: 16000 }, (b) => b.subarray(0, 3000))).toBe(
      AUDIO_NOT_WHOLE.tooShort,
    );
    const opus = { codec: 'opus', sampleRate: 48000, bitrateKbps: 32 } as const;
    const pages = takePieces(createTake(TEXT, opus), 100);
    const allButLast = pages.slice(0, -1).reduce((sum, p) => sum + p.bytes.length, 0);
    expect(reason(opus, (b) => b.subarray(0, allButLast))).toBe(AUDIO_NOT_WHOLE.noLastPage);
    expect(reason({ codec: 'flac', sampleRate: 16000 }, (b) => b.subarray(0, 200))).toBe(
      AUDIO_NOT_WHOLE.partialFrame,
    );
  });

  it('cannot tell where the layout is unknown, and takes punctuation and spaces as possibly silent', () => {
    const take = createTake(TEXT, { codec: 'pcm', sampleRate: 16000 });
    expect(checkAudio(take.bytes, { layout: { kind: 'unknown' }, leastMs: 0 })).toEqual({
      verdict: 'unknown',
      reason: AUDIO_NOT_WHOLE.unknown,
    });
    expect(leastSpokenMs('... !!! ???', 1)).toBe(0);
    expect(leastSpokenMs('Hi there 42', 1)).toBeCloseTo(leastSpokenMs('Hithere42', 1));
    expect(leastSpokenMs('abc', 2)).toBeCloseTo(leastSpokenMs('abc', 1) / 2);
    // A speed below 1 never raises the bound: a slower take only has more audio.
    expect(leastSpokenMs('abc', 0.5)).toBe(leastSpokenMs('abc', 1));
  });
});
