import { RouterError, type SynthSettings } from '@router/contracts';
import {
  audioPassThrough,
  HttpVendorAdapter,
  readRefusal,
  stringAt,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type VendorId,
  type Voice,
  type VoiceListRequest,
  readAllPages,
  vendorFailure,
} from '@router/vendors-core';
import {
  VENDOR_G_MODELS_PATH,
  vendorGClonedPagePath,
  vendorGNextCursor,
  vendorGVoices,
} from './vendor-g.voices';

const VENDOR: VendorId = 'vendor_g';

/** The router's formats by the vendor's `audio_format` names (`pcm` is raw s16le). */
const AUDIO_FORMATS: Readonly<Record<string, string>> = {
  pcm: 'pcm_s16le',
  wav: 'wav',
  mp3: 'mp3',
  mulaw: 'pcm_mulaw',
  alaw: 'pcm_alaw',
};

/** The TTS host's request/response endpoint: the raw audio streams in the body as it is made. */
export const VENDOR_G_TTS_PATH = '/tts';

/** The body of one piece. The rate is always sent: the vendor requires it for the raw formats. */
export function vendorGBody(settings: SynthSettings, text: string): Record<string, unknown> {
  const audioFormat = AUDIO_FORMATS[settings.format];
  if (!audioFormat) throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  const reduceSilence = settings.options['reduce_silence'];
  return {
    text,
    model: settings.model,
    language: settings.language,
    voice: settings.voice,
    audio_format: audioFormat,
    sample_rate: settings.sampleRate,
    speed: settings.speed ?? 1.0,
    // Left out (null), the vendor's own default applies: the request stays as the client wrote it.
    ...(typeof reduceSilence === 'boolean' ? { reduce_silence: reduceSilence } : {}),
  };
}

/**
 * A failure reported after the first audio byte, in the body's HTTP trailers. The vendor's notes say only
 * that such errors come in trailers; the names are the ones the simulator sends (`error-status`,
 * `error-type`, `error-message`), and any trailer of that family marks the take as failed.
 */
export function vendorGTrailerFailure(trailers: Readonly<Record<string, string>>): RouterError | null {
  const status = trailers['error-status'];
  const type = trailers['error-type'];
  const message = trailers['error-message'];
  if (status === undefined && type === undefined && message === undefined) return null;
  const code = Number(status);
  return vendorFailure(
    VENDOR,
    Number.isInteger(code) && code >= 400 ? code : 502,
    message ?? type ?? `${VENDOR} reported a failure after the audio started`,
  );
}

/** The vendor's refusal text: `{message}` of its error body, else the body itself. */
export function vendorGErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'message'));
}

/**
 * vendor_g over its TTS host's `POST /tts` with keep-alive: the raw audio is passed through chunk by chunk as
 * it arrives, and the take is complete when the body ends cleanly (a cut throws). Errors before audio are
 * HTTP statuses with `{message}`. The vendor reports an error after the first byte only in HTTP trailers,
 * which this adapter reads once the body has ended, so such a take fails and is never cached. The org's key
 * goes in `Authorization: Bearer`.
 */
export class VendorGAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorGErrorMessage);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorGBody(call.settings, call.text);
    const headers = { authorization: `Bearer ${call.apiKey}` };
    yield* this.exchange({ path: VENDOR_G_TTS_PATH, body, headers, signal: call.signal }, audioPassThrough);
  }

  protected override trailerFailure(trailers: Readonly<Record<string, string>>): RouterError | null {
    return vendorGTrailerFailure(trailers);
  }

  /**
   * The built-in voices of `/v1/tts-models` and every page of the project's cloned voices, read together.
   * Both are on the vendor's API host, which this adapter reaches at the same base URL as its TTS host.
   */
  async listVoices(request: VoiceListRequest): Promise<Voice[]> {
    const headers = { authorization: `Bearer ${request.apiKey}` };
    const [models, cloned] = await Promise.all([
      this.getJson<{ models?: unknown }>(VENDOR_G_MODELS_PATH, headers, request.signal),
      readAllPages(
        VENDOR,
        (cursor) =>
          this.getJson<{ voices?: unknown; next_page_cursor?: unknown }>(
            vendorGClonedPagePath(cursor),
            headers,
            request.signal,
          ),
        vendorGNextCursor,
      ),
    ]);
    return vendorGVoices(models, cloned, request.model);
  }
}

export const createVendorGAdapter: AdapterFactory = (options) => new VendorGAdapter(options);
