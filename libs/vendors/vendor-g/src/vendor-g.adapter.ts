import type { RouterError, SynthSettings } from '@router/contracts';
import {
  type AudioLayout,
  audioPassThrough,
  HttpVendorAdapter,
  type AdapterOptions,
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

/**
 * vendor_g over its TTS host's `POST /tts` with keep-alive: the raw audio is passed through chunk by chunk as
 * it arrives, and the take is complete when the body ends cleanly (a cut throws). Errors before audio are
 * HTTP statuses with `{message}`. The vendor reports an error after the first byte only in HTTP trailers,
 * which this adapter reads once the body has ended, so such a take fails and is never cached.
 */
export class VendorGAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(options, {
      vendor: 'vendor_g',
      keyPlacements: VENDOR_G_KEY,
      refusalText: vendorGErrorMessage,
      speech: ({ settings, text }) => ({
        path: VENDOR_G_TTS_PATH,
        body: vendorGBody(settings, text),
        read: audioPassThrough,
      }),
    });
  }

  /** Raw PCM of the vendor's own sample encodings (`pcm_f32le`, `pcm_s16be`) besides the router's formats. */
  audioLayout(settings: SynthSettings): AudioLayout {
    return vendorGAudioLayout(vendorGAudioFormat(settings.format), settings.sampleRate);
  }

  protected override trailerFailure(trailers: Readonly<Record<string, string>>): RouterError | null {
    return vendorGTrailerFailure(trailers);
  }

  /**
   * The built-in voices of `/v1/tts-models` and every page of the project's cloned voices, read together.
   * Both are on the vendor's API host, which this adapter reaches at the same base URL as its TTS host.
   */
  async listVoices(request: VoiceListRequest) {
    const [models, cloned] = await Promise.all([
      this.getJson<{ models?: unknown }>(VENDOR_G_MODELS_PATH, request),
      readAllPages(
        'vendor_g',
        (cursor) =>
          this.getJson<{ voices?: unknown; next_page_cursor?: unknown }>(
            vendorGClonedPagePath(cursor),
            request,
          ),
        vendorGNextCursor,
      ),
    ]);
    return vendorGVoices(models, cloned, request.model);
  }
}

export const createVendorGAdapter = (options: AdapterOptions) => new VendorGAdapter(options);
