/**
 * The router's native HTTP resources exactly as their JSON has them (snake_case field names), restated
 * from the interface spec rather than imported: the client is published on its own and must not depend on
 * the router's workspace code.
 */

/** Any JSON value (option defaults, vendor-specific data). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * The router's vendor tokens, in its order. Restated (the client imports no workspace lib); libs/testing's
 * `client-provider-ids.spec.ts` fails while it differs from the registry's `VENDOR_IDS`.
 */
export const PROVIDER_IDS = [
  'vendor_a',
  'vendor_b',
  'vendor_c',
  'vendor_d',
  'vendor_e',
  'vendor_f',
  'vendor_g',
  'vendor_h',
  'vendor_i',
  'vendor_j',
] as const;

export type ProviderId = (typeof PROVIDER_IDS)[number];

/** The formats the router serves (as the vendor makes them; `flac` and `opus` are always refused). */
export type AudioFormat = 'pcm' | 'wav' | 'mp3' | 'aac' | 'mulaw' | 'alaw';

export type SampleRate = 8000 | 16000 | 22050 | 24000 | 32000 | 44100 | 48000;

/** The settings shared by `POST /v1/audio/speech` and `/v1/stream`. */
export interface VoiceSettings {
  /** `<provider>/<model_id>`, e.g. `vendor_c/c_model_1`. */
  model: string;
  /** The vendor's voice id (see `voices()`); it must belong to the model. */
  voice: string;
  /** The vendor's language code; required for vendor_a, vendor_b and vendor_g. */
  language?: string | null;
  /** Default `mp3`. */
  response_format?: AudioFormat;
  /** Within the vendor's speed range (`models()`); not for vendor_c or vendor_j. */
  speed?: number;
  /** Speech: the catalogue's `speech_sample_rates`; stream: its `sample_rates`. Default 24000. */
  sample_rate?: SampleRate;
}

/**
 * The body of `POST /v1/audio/speech`. Vendor options go top-level under their catalogue names
 * (`temperature`, `voice_settings`, `instructions`, …), which is why other keys are allowed.
 */
export interface SpeechRequest extends VoiceSettings {
  /** 1 to 20,000 characters. */
  input: string;
  stream_format?: 'audio';
  [option: string]: JsonValue | undefined;
}

export interface SpeedRange {
  min: number;
  max: number;
  default?: number;
}

export interface CatalogueModel {
  id: string;
  languages: string[];
  /** Null when the model's voices come from the live list (`voices()`). */
  voices: string[] | null;
  voices_url: string;
}

export interface CatalogueOption {
  name: string;
  type: 'number' | 'string' | 'integer' | 'boolean' | 'object' | 'array';
  default: JsonValue;
  nullable: boolean;
  min: number | null;
  max: number | null;
  values: string[] | null;
  /** Null means every model of the vendor. */
  models: string[] | null;
  description: string;
}

export interface CatalogueProvider {
  id: ProviderId;
  name: string;
  docs_url: string;
  formats: AudioFormat[];
  models: CatalogueModel[];
  options: CatalogueOption[];
  /** Rates for `/v1/stream`. */
  sample_rates: SampleRate[];
  /** Rates for `POST /v1/audio/speech`. */
  speech_sample_rates: SampleRate[];
  /** Null when speed is not a top-level setting. */
  speed: SpeedRange | null;
}

/** `GET /v1/models`. */
export interface Catalogue {
  providers: CatalogueProvider[];
}

export interface VoicesQuery {
  provider: ProviderId;
  /** Router model id without the vendor, e.g. `a_model_2`. */
  model?: string;
}

export interface Voice {
  /** What `voice` takes on every surface. */
  id: string;
  name: string;
  provider: ProviderId;
  models: string[];
  languages: string[];
  gender: 'male' | 'female' | 'neutral' | null;
  accent: string | null;
  age: string | null;
  description: string | null;
  preview_url: string | null;
  category: 'builtin' | 'cloned' | 'custom' | 'library';
  /** The vendor's own voice object as received; null for catalogue voices. */
  provider_data: { [key: string]: JsonValue } | null;
}

/** `GET /v1/voices`. */
export interface VoiceList {
  voices: Voice[];
}

/** A stored vendor key, described by its last four characters (the key itself is never returned). */
export interface ProviderKey {
  provider: ProviderId;
  last4: string;
  /** ISO 8601 date-time. */
  updated_at: string;
}
