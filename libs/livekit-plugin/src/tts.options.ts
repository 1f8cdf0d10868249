import type {
  ProviderId,
  StreamSettings,
  VendorFormat,
  VendorModel,
  VendorOptions,
  VendorStreamRate,
  VendorVoice,
  WebSocketConstructor,
} from '@speech-router/client';
import type { PcmFormat } from './pcm-decoder';

/** The rate every vendor streams at, so the default works for any of them. */
export const DEFAULT_SAMPLE_RATE = 24000;
export const BASE_URL_ENV = 'SPEECH_ROUTER_URL';
export const API_KEY_ENV = 'SPEECH_ROUTER_API_KEY';

/** One vendor and model's settings, typed from the router's catalogue. */
export type VendorTTSOptions<V extends ProviderId, M extends VendorModel<V>> = VendorVoice<V, M> & {
  /**
   * How the router sends the audio (default `pcm`). Every one of these reaches the framework as 16-bit PCM
   * frames without a codec; the format is part of the cache key, so pick the one other surfaces of the org use.
   */
  format?: Extract<VendorFormat<V>, PcmFormat>;
  /** One of the vendor's streaming rates (the catalogue's `sample_rates`); default 24000, which every vendor has. */
  sampleRate?: VendorStreamRate<V>;
  /** The vendor's options under their catalogue names (`GET /v1/models`); left out means the catalogue default. */
  options?: VendorOptions<V>;
};

/** Any vendor and model's settings: `vendor` picks the rest of the types. */
export type VoiceOptions = {
  [V in ProviderId]: { [M in VendorModel<V>]: VendorTTSOptions<V, M> }[VendorModel<V>];
}[ProviderId];

/** Where the router is, who is asking, and how the connection behaves. */
export interface RouterConnectionOptions {
  /** The router's address, e.g. `https://router.example.com`; default the `SPEECH_ROUTER_URL` environment variable. */
  baseUrl?: string;
  /** The org's router API key (`rtr_…`); default the `SPEECH_ROUTER_API_KEY` environment variable. */
  apiKey?: string;
  /** A WebSocket constructor shaped like the `ws` package's (default `ws`). */
  WebSocket?: WebSocketConstructor;
}

export type TTSOptions = VoiceOptions & RouterConnectionOptions;

/** What a reply needs of the options: the `/v1/stream` settings and how to turn its audio into frames. */
export interface ResolvedVoice {
  vendor: ProviderId;
  /** `<vendor>/<model>`. */
  modelId: string;
  format: PcmFormat;
  sampleRate: number;
  /** Whether the router sends the sentences' word timings with these settings. */
  wordTimings: boolean;
  settings: StreamSettings;
}

/** The `/v1/stream` settings for these options (the router checks them and names any field it refuses). */
export function resolveVoice(options: VoiceOptions): ResolvedVoice {
  const format: PcmFormat = options.format ?? 'pcm';
  const sampleRate: number = options.sampleRate ?? DEFAULT_SAMPLE_RATE;
  const modelId = `${options.vendor}/${options.model}`;
  const settings: StreamSettings = {
    model: modelId,
    voice: options.voice,
    response_format: format,
    sample_rate: sampleRate as StreamSettings['sample_rate'],
  };
  if ('language' in options && options.language !== undefined) settings.language = options.language;
  if ('speed' in options && options.speed !== undefined) settings.speed = options.speed;
  if (options.options !== undefined) settings.options = { ...options.options };
  return {
    vendor: options.vendor,
    modelId,
    format,
    sampleRate,
    wordTimings: wordTimings(options, format),
    settings,
  };
}

/**
 * Whether `/v1/stream` sends `words` for these settings (docs/stream-protocol.md): vendor_c while
 * `sync_alignment` is on, vendor_i while `word_timestamps` is on and the format is one its streaming endpoints
 * make (its `wav` comes from its one-shot endpoint, without timings). Both options default to on.
 */
function wordTimings(options: VoiceOptions, format: PcmFormat): boolean {
  if (options.vendor === 'vendor_c') return options.options?.sync_alignment !== false;
  if (options.vendor === 'vendor_i') return options.options?.word_timestamps !== false && format !== 'wav';
  return false;
}

/** The router's address and key from the options, else the environment; a clear error naming what is missing. */
export function resolveRouter(
  options: RouterConnectionOptions,
  env: Record<string, string | undefined>,
): { baseUrl: string; apiKey: string } {
  const baseUrl = options.baseUrl ?? env[BASE_URL_ENV];
  const apiKey = options.apiKey ?? env[API_KEY_ENV];
  if (!baseUrl) throw new Error(`The router's address is required: pass baseUrl or set ${BASE_URL_ENV}`);
  if (!apiKey) throw new Error(`The router API key is required: pass apiKey or set ${API_KEY_ENV}`);
  return { baseUrl, apiKey };
}
