import { RouterError, type SynthSettings } from '@router/contracts';
import {
  HttpVendorAdapter,
  audioPassThrough,
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
import { readVendorAWarning, vendorAErrorMessage } from './wire/vendor-a.errors';
import { VENDOR_A_KEY } from './wire/vendor-a.key';
import { vendorARequest } from './wire/vendor-a.requests';
import { readVendorAOneShotAudio } from './wire/vendor-a.responses';

const VENDOR: VendorId = 'vendor_a';

/**
 * vendor_a over HTTP with keep-alive: `POST /text-to-speech/stream` passes the audio through chunk by chunk as
 * it arrives; `POST /text-to-speech` (only for 32000 to 48000 Hz) yields the decoded `audios` once complete.
 * The org's key goes where the vendor takes it (`VENDOR_A_KEY`).
 */
export class VendorAAdapter extends HttpVendorAdapter {
  /** A `dict_id`'s dictionary, read once with the org's key before its pieces are cached. */
  readonly storedSettings: StoredSettingsReader = {
    references: vendorAStoredReferences,
    read: (reference, call) => this.readDictionary(reference, call),
  };

  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorAErrorMessage, VENDOR_A_KEY);
  }

  /** The vendor's opus comes in an Ogg container, and says so. */
  override contentType(settings: SynthSettings): string {
    return settings.format === 'opus' ? 'audio/ogg' : super.contentType(settings);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const { path, body } = vendorARequest(call.settings, call.text);
    const read = path === '/text-to-speech' ? oneShotAudio : audioPassThrough;
    yield* this.exchange(
      { path, body, apiKey: call.apiKey, headers: {}, signal: call.signal },
      (answer, headers) => withWarning(headers, read(answer)),
    );
  }

  /** The dictionary as the vendor answers it; a dictionary it does not know is its 404, refused. */
  private async readDictionary(
    reference: StoredReference,
    call: { apiKey: string; signal: AbortSignal },
  ): Promise<JsonValue> {
    const path = vendorAStoredPath(reference);
    if (!path) throw new RouterError('internal', `${VENDOR} stores nothing named ${reference.name}`);
    return this.getJson<Record<string, JsonValue>>(path, call.apiKey, call.signal);
  }

  /**
   * The vendor publishes no voice list: the voices are the router's catalogue (no vendor call; the org's key
   * is only required, as for every vendor).
   */
  listVoices(request: VoiceListRequest): Promise<Voice[]> {
    return Promise.resolve(catalogueVoiceList(vendorA, request.model));
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
  if (!audio) throw vendorMalformed(VENDOR, 'an answer without audio');
  yield { kind: 'audio', data: audio };
}

export const createVendorAAdapter: AdapterFactory = (options) => new VendorAAdapter(options);
