import type { SynthSettings } from '@router/contracts';
import {
  HttpVendorAdapter,
  audioPassThrough,
  listCatalogueVoices,
  vendorMalformed,
  type AdapterOptions,
  type JsonValue,
  type VoiceListRequest,
  type SynthesisEvent,
  type UpstreamBody,
} from '@router/vendors-core';
import { vendorAStoredPath, vendorAStoredReferences } from './vendor-a.stored-settings';
import { vendorA } from './vendor-a.definition';
import { readVendorAWarning, vendorAErrorMessage } from './wire/vendor-a.errors';
import { VENDOR_A_KEY } from './wire/vendor-a.key';
import { vendorARequest } from './wire/vendor-a.requests';
import { readVendorAOneShotAudio } from './wire/vendor-a.responses';

/**
 * vendor_a over HTTP with keep-alive: `POST /text-to-speech/stream` passes the audio through chunk by chunk as
 * it arrives; `POST /text-to-speech` (only for 32000 to 48000 Hz) yields the decoded `audios` once complete.
 * The org's key goes where the vendor takes it (`VENDOR_A_KEY`).
 */
export class VendorAAdapter extends HttpVendorAdapter {
  /**
   * A `dict_id`'s dictionary, read once with the org's key before its pieces are cached: as the vendor
   * answers it; a dictionary it does not know is its 404, refused.
   */
  readonly storedSettings = this.storedSettingsReader(
    vendorAStoredReferences,
    vendorAStoredPath,
    (path, call) => this.getJson<Record<string, JsonValue>>(path, call),
  );

  constructor(options: AdapterOptions) {
    super(options, {
      vendor: 'vendor_a',
      keyPlacements: VENDOR_A_KEY,
      refusalText: vendorAErrorMessage,
      speech: ({ settings, text }) => {
        const { path, body } = vendorARequest(settings, text);
        const read = path === '/text-to-speech' ? oneShotAudio : audioPassThrough;
        return { path, body, read: (answer, headers) => withWarning(headers, read(answer)) };
      },
    });
  }

  /** The vendor's opus comes in an Ogg container, and says so. */
  override contentType(settings: SynthSettings): string {
    return settings.format === 'opus' ? 'audio/ogg' : super.contentType(settings);
  }

  listVoices(request: VoiceListRequest) {
    return listCatalogueVoices(vendorA, request);
  }
}

/** The audio of an answer, after the error the vendor reported in its headers about a take it still spoke. */
async function* withWarning(
  headers: Readonly<Record<string, string>>,
  audio: AsyncIterable<SynthesisEvent>,
): AsyncGenerator<SynthesisEvent> {
  const warning = readVendorAWarning(headers);
  if (warning) yield { kind: 'warning', warning };
  yield* audio;
}

/** The one-shot answer: `{audios: [base64, ...]}`, whole once the vendor finished the take. */
async function* oneShotAudio(body: UpstreamBody): AsyncGenerator<SynthesisEvent> {
  const audio = readVendorAOneShotAudio(await body.text());
  if (!audio) throw vendorMalformed('vendor_a', 'an answer without audio');
  yield { kind: 'audio', data: audio };
}

export const createVendorAAdapter = (options: AdapterOptions) => new VendorAAdapter(options);
