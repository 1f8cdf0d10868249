import { RouterError, type SynthSettings } from '@router/contracts';
import {
  HttpVendorAdapter,
  audioPassThrough,
  readRefusal,
  stringAt,
  vendorMalformed,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type UpstreamBody,
  type VendorId,
  type Voice,
  type VoiceListRequest,
  catalogueVoiceList,
  type JsonValue,
  type StoredReference,
  type StoredSettingsReader,
} from '@router/vendors-core';
import { vendorAStoredPath, vendorAStoredReferences } from './vendor-a.stored-settings';
import { vendorA } from './vendor-a.definition';

const VENDOR: VendorId = 'vendor_a';

/** The vendor's own codec names (`linear16` is its raw 16-bit PCM). */
const CODECS: Readonly<Record<string, string>> = {
  pcm: 'linear16',
  wav: 'wav',
  mp3: 'mp3',
  aac: 'aac',
  mulaw: 'mulaw',
  alaw: 'alaw',
};

/** Above this rate the vendor serves audio only from its one-shot REST endpoint (spec: Native speech). */
const STREAMING_MAX_RATE = 24000;

/** Option name → the vendor's body field, where they differ. */
const OPTION_FIELDS: Readonly<Record<string, string>> = { bitrate: 'output_audio_bitrate' };

export interface VendorARequest {
  /** `/text-to-speech/stream` (chunked audio as it is made) or `/text-to-speech` (one JSON answer). */
  readonly path: '/text-to-speech/stream' | '/text-to-speech';
  readonly body: Record<string, unknown>;
}

/**
 * The vendor request for one piece. The streaming endpoint gives the first audio earliest; rates above 24000 Hz
 * exist only on the one-shot endpoint, so those takes arrive whole.
 */
export function vendorARequest(settings: SynthSettings, text: string): VendorARequest {
  const codec = CODECS[settings.format];
  if (!codec) throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  const body: Record<string, unknown> = {
    text,
    target_language_code: settings.language,
    speaker: settings.voice,
    model: settings.model,
    pace: settings.speed ?? 1.0,
    speech_sample_rate: settings.sampleRate,
    output_audio_codec: codec,
  };
  for (const [name, value] of Object.entries(settings.options)) {
    if (value !== null && value !== undefined) body[OPTION_FIELDS[name] ?? name] = value;
  }
  const path = settings.sampleRate > STREAMING_MAX_RATE ? '/text-to-speech' : '/text-to-speech/stream';
  return { path, body };
}

/** The vendor's refusal text: `{error: {message}}`, else the framework's `{detail}`, else the body as sent. */
export function vendorAErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error', 'message') ?? stringAt(json, 'detail'));
}

/**
 * vendor_a over HTTP with keep-alive: `POST /text-to-speech/stream` passes the audio through chunk by chunk as
 * it arrives; `POST /text-to-speech` (only for 32000 to 48000 Hz) yields the decoded `audios` once complete.
 * The org's key goes in `api-subscription-key`.
 */
export class VendorAAdapter extends HttpVendorAdapter {
  /** A `dict_id`'s dictionary, read once with the org's key before its pieces are cached. */
  readonly storedSettings: StoredSettingsReader = {
    references: vendorAStoredReferences,
    read: (reference, call) => this.readDictionary(reference, call),
  };

  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorAErrorMessage);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const { path, body } = vendorARequest(call.settings, call.text);
    const headers = { 'api-subscription-key': call.apiKey };
    const read = path === '/text-to-speech' ? oneShotAudio : audioPassThrough;
    yield* this.exchange({ path, body, headers, signal: call.signal }, read);
  }

  /** The dictionary as the vendor answers it; a dictionary it does not know is its 404, refused. */
  private async readDictionary(
    reference: StoredReference,
    call: { apiKey: string; signal: AbortSignal },
  ): Promise<JsonValue> {
    const path = vendorAStoredPath(reference);
    if (!path) throw new RouterError('internal', `${VENDOR} stores nothing named ${reference.name}`);
    return this.getJson<Record<string, JsonValue>>(
      path,
      { 'api-subscription-key': call.apiKey },
      call.signal,
    );
  }

  /**
   * The vendor publishes no voice list: the voices are the router's catalogue (no vendor call; the org's key
   * is only required, as for every vendor).
   */
  listVoices(request: VoiceListRequest): Promise<Voice[]> {
    return Promise.resolve(catalogueVoiceList(vendorA, request.model));
  }
}

/** The one-shot answer: `{audios: [base64, ...]}`, whole once the vendor finished the take. */
async function* oneShotAudio(body: UpstreamBody): AsyncGenerator<SynthesisEvent> {
  const text = await body.text();
  let audios: unknown;
  try {
    audios = (JSON.parse(text) as { audios?: unknown }).audios;
  } catch {
    audios = undefined;
  }
  if (!Array.isArray(audios) || audios.length === 0 || !audios.every((a) => typeof a === 'string')) {
    throw vendorMalformed(VENDOR, 'an answer without audio');
  }
  yield { kind: 'audio', data: Buffer.concat(audios.map((a) => Buffer.from(a, 'base64'))) };
}

export const createVendorAAdapter: AdapterFactory = (options) => new VendorAAdapter(options);
