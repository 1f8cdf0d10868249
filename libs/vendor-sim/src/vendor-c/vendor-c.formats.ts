import type { AudioSpec } from '../kit/audio/audio-spec';

const PCM_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
const KBPS = [32, 64, 96, 128, 192];

/** Every `output_format` the vendor takes, with what it means. */
export const VENDOR_C_OUTPUT_FORMATS: ReadonlyMap<string, AudioSpec> = new Map<string, AudioSpec>([
  ['mp3_22050_32', { codec: 'mp3', sampleRate: 22050, bitrateKbps: 32 }],
  ['mp3_24000_48', { codec: 'mp3', sampleRate: 24000, bitrateKbps: 48 }],
  ...KBPS.map((k): [string, AudioSpec] => [
    `mp3_44100_${k}`,
    { codec: 'mp3', sampleRate: 44100, bitrateKbps: k },
  ]),
  ...PCM_RATES.map((r): [string, AudioSpec] => [`pcm_${r}`, { codec: 'pcm', sampleRate: r }]),
  ...PCM_RATES.map((r): [string, AudioSpec] => [`wav_${r}`, { codec: 'wav', sampleRate: r }]),
  ['ulaw_8000', { codec: 'mulaw', sampleRate: 8000 }],
  ['alaw_8000', { codec: 'alaw', sampleRate: 8000 }],
  ...KBPS.map((k): [string, AudioSpec] => [
    `opus_48000_${k}`,
    { codec: 'opus', sampleRate: 48000, bitrateKbps: k },
  ]),
]);

export const DEFAULT_OUTPUT_FORMAT = 'mp3_44100_128';

/** The spec for a format name, or undefined when the vendor has no such format. */
export function outputFormat(name: string): AudioSpec | undefined {
  return VENDOR_C_OUTPUT_FORMATS.get(name);
}

/** The vendor starts each MP3 stream with an ID3 tag; `first` is false for later generations of one stream. */
export function withId3(spec: AudioSpec, first: boolean): AudioSpec {
  return spec.codec === 'mp3' && first ? { ...spec, id3: true } : spec;
}
