import type { RouterError, SynthSettings } from '@router/contracts';
import {
  type AudioLayout,
  audioPassThrough,
  HttpVendorAdapter,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type VendorId,
  type Voice,
  type VoiceListRequest,
  readAllPages,
} from '@router/vendors-core';
import { vendorGErrorMessage, vendorGTrailerFailure } from './wire/vendor-g.errors';
import { vendorGAudioFormat, vendorGAudioLayout } from './wire/vendor-g.formats';
import { VENDOR_G_KEY } from './wire/vendor-g.key';
import { VENDOR_G_TTS_PATH, vendorGBody } from './wire/vendor-g.requests';
import {
  VENDOR_G_MODELS_PATH,
  vendorGClonedPagePath,
  vendorGNextCursor,
  vendorGVoices,
} from './wire/vendor-g.voices';

const VENDOR: VendorId = 'vendor_g';

/**
 * vendor_g over its TTS host's `POST /tts` with keep-alive: the raw audio is passed through chunk by chunk as
 * it arrives, and the take is complete when the body ends cleanly (a cut throws). Errors before audio are
 * HTTP statuses with `{message}`. The vendor reports an error after the first byte only in HTTP trailers,
 * which this adapter reads once the body has ended, so such a take fails and is never cached.
 */
export class VendorGAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorGErrorMessage, VENDOR_G_KEY);
  }

  /** Raw PCM of the vendor's own sample encodings (`pcm_f32le`, `pcm_s16be`) besides the router's formats. */
  audioLayout(settings: SynthSettings): AudioLayout {
    return vendorGAudioLayout(vendorGAudioFormat(settings.format), settings.sampleRate);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorGBody(call.settings, call.text);
    yield* this.exchange(
      { path: VENDOR_G_TTS_PATH, body, apiKey: call.apiKey, headers: {}, signal: call.signal },
      audioPassThrough,
    );
  }

  protected override trailerFailure(trailers: Readonly<Record<string, string>>): RouterError | null {
    return vendorGTrailerFailure(trailers);
  }

  /**
   * The built-in voices of `/v1/tts-models` and every page of the project's cloned voices, read together.
   * Both are on the vendor's API host, which this adapter reaches at the same base URL as its TTS host.
   */
  async listVoices(request: VoiceListRequest): Promise<Voice[]> {
    const { apiKey, signal } = request;
    const [models, cloned] = await Promise.all([
      this.getJson<{ models?: unknown }>(VENDOR_G_MODELS_PATH, apiKey, signal),
      readAllPages(
        VENDOR,
        (cursor) =>
          this.getJson<{ voices?: unknown; next_page_cursor?: unknown }>(
            vendorGClonedPagePath(cursor),
            apiKey,
            signal,
          ),
        vendorGNextCursor,
      ),
    ]);
    return vendorGVoices(models, cloned, request.model);
  }
}

export const createVendorGAdapter: AdapterFactory = (options) => new VendorGAdapter(options);
