import { RouterError, type SynthSettings } from '@router/contracts';
import { optionDefaultAt, SAMPLE_RATES, type SampleRate } from '@router/vendors-core';
import { vendorC } from '../vendor-c.definition';

/** The codecs vendor_c's `output_format` tokens name; `mulaw` is the token's `ulaw`. */
export type VendorCCodec = 'mp3' | 'pcm' | 'wav' | 'mulaw' | 'alaw' | 'opus';

/** What one `output_format` token means. */
export interface VendorCAudio {
  readonly codec: VendorCCodec;
  readonly sampleRate: number;
  /** mp3 and opus only. */
  readonly bitrateKbps?: number;
}

const PCM_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000];
const KBPS = [32, 64, 96, 128, 192];

/** Every `output_format` the vendor takes, with what it means. */
export const VENDOR_C_OUTPUT_FORMATS: ReadonlyMap<string, VendorCAudio> = new Map<string, VendorCAudio>([
  ['mp3_22050_32', { codec: 'mp3', sampleRate: 22050, bitrateKbps: 32 }],
  ['mp3_24000_48', { codec: 'mp3', sampleRate: 24000, bitrateKbps: 48 }],
  ...KBPS.map((k): [string, VendorCAudio] => [
    `mp3_44100_${k}`,
    { codec: 'mp3', sampleRate: 44100, bitrateKbps: k },
  ]),
  ...PCM_RATES.map((r): [string, VendorCAudio] => [`pcm_${r}`, { codec: 'pcm', sampleRate: r }]),
  ...PCM_RATES.map((r): [string, VendorCAudio] => [`wav_${r}`, { codec: 'wav', sampleRate: r }]),
  ['ulaw_8000', { codec: 'mulaw', sampleRate: 8000 }],
  ['alaw_8000', { codec: 'alaw', sampleRate: 8000 }],
  ...KBPS.map((k): [string, VendorCAudio] => [
    `opus_48000_${k}`,
    { codec: 'opus', sampleRate: 48000, bitrateKbps: k },
  ]),
]);

/** The format a request without `output_format` gets. */
export const DEFAULT_OUTPUT_FORMAT = 'mp3_44100_128';

/** What a format token means, or undefined when the vendor has no such format. */
export function outputFormat(token: string): VendorCAudio | undefined {
  return VENDOR_C_OUTPUT_FORMATS.get(token);
}

/**
 * The `output_format` token for the router's settings: format, sample rate and, for mp3 and opus, the
 * `bitrate` option (opus only in settings read from a vendor_c client, see vendor-c.settings.ts). A bitrate
 * left out is the catalogue's default at the rate: the per-rate one for mp3, the option's own (128k) for opus,
 * whose settings lose the option at that default once canonical (the catalogue gives `bitrate` to mp3 only,
 * so a default bitrate with another format is taken as never sent).
 */
export function vendorCOutputFormat(settings: SynthSettings): string {
  const rate = settings.sampleRate;
  let kbps: number | undefined;
  if (settings.format === 'mp3' || settings.format === 'opus') {
    const given = settings.options['bitrate'];
    const bitrate = typeof given === 'string' ? given : defaultBitrate(rate);
    kbps = typeof bitrate === 'string' ? Number.parseInt(bitrate, 10) : undefined;
    if (kbps === undefined || Number.isNaN(kbps)) {
      throw RouterError.badRequest(`vendor_c has no ${settings.format} at ${rate} Hz without a bitrate`);
    }
  }
  for (const [token, audio] of VENDOR_C_OUTPUT_FORMATS) {
    if (audio.codec === settings.format && audio.sampleRate === rate && audio.bitrateKbps === kbps)
      return token;
  }
  throw RouterError.badRequest(
    `vendor_c cannot produce ${settings.format} audio at ${rate} Hz${kbps ? ` and ${kbps} kbps` : ''}`,
  );
}

function defaultBitrate(rate: number): unknown {
  const known = (SAMPLE_RATES as readonly number[]).includes(rate);
  return known ? optionDefaultAt(vendorC, 'bitrate', rate as SampleRate) : undefined;
}

/**
 * Whether the vendor starts this audio with an ID3 tag: MP3 at the start of a stream (every REST answer, a
 * socket's or a context's first generation); a stream's later generations carry none.
 */
export function startsWithId3(audio: VendorCAudio, firstOfStream: boolean): boolean {
  return audio.codec === 'mp3' && firstOfStream;
}
