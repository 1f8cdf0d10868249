import { RouterError, type SynthSettings } from '@router/contracts';
import {
  HttpVendorAdapter,
  audioPassThrough,
  readRefusal,
  stringAt,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type VendorId,
  type Voice,
  type VoiceListRequest,
} from '@router/vendors-core';
import { vendorE } from './vendor-e.definition';
import { vendorEModelLists, vendorEVoices } from './vendor-e.voices';

const VENDOR: VendorId = 'vendor_e';

/** The router's format → the vendor's `encoding` and `container` (raw formats must say `none`, or come in WAV). */
const ENCODINGS: Readonly<Record<string, { encoding: string; container?: string }>> = {
  pcm: { encoding: 'linear16', container: 'none' },
  wav: { encoding: 'linear16', container: 'wav' },
  mulaw: { encoding: 'mulaw', container: 'none' },
  alaw: { encoding: 'alaw', container: 'none' },
  // mp3 is a container of its own.
  mp3: { encoding: 'mp3' },
};

export interface VendorERequest {
  /** `/v1/speak` streams first-generation audio as it is made; `/v2/speak` is the second generation's REST call. */
  readonly path: string;
  readonly body: { text: string };
}

/**
 * The request for one piece: the vendor's voice model name is the router model id, a hyphen and the voice
 * id; audio settings go in the query, the text in the body.
 */
export function vendorERequest(settings: SynthSettings, text: string): VendorERequest {
  const target = ENCODINGS[settings.format];
  if (!target) throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  const query = new URLSearchParams({
    model: `${settings.model}-${settings.voice}`,
    encoding: target.encoding,
  });
  if (target.container) query.set('container', target.container);
  query.set('sample_rate', String(settings.sampleRate));
  query.set('speed', String(settings.speed ?? 1.0));
  const bitRate = settings.options['bit_rate'];
  if (settings.format === 'mp3' && typeof bitRate === 'number') query.set('bit_rate', String(bitRate));
  const optOut = settings.options['mip_opt_out'];
  if (typeof optOut === 'boolean') query.set('mip_opt_out', String(optOut));
  const generation = vendorE.modelTraits[settings.model]?.apiVersion ?? 'v1';
  return { path: `/${generation}/speak?${query.toString()}`, body: { text } };
}

/** The vendor's refusal text: `err_msg` (its older shape), `message` (its newer one), else the body. */
export function vendorEErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'err_msg') ?? stringAt(json, 'message'));
}

/**
 * vendor_e over HTTP with keep-alive: `POST /v1/speak` passes the first generation's chunked audio through as
 * it arrives; `POST /v2/speak` (`e_model_3`) answers its take in one body, passed through the same way. The
 * org's key goes in `Authorization: Token`.
 */
export class VendorEAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorEErrorMessage);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const { path, body } = vendorERequest(call.settings, call.text);
    const headers = { authorization: `Token ${call.apiKey}` };
    yield* this.exchange({ path, body, headers, signal: call.signal }, audioPassThrough);
  }

  /**
   * The voices from the vendor's public model lists. No key is sent: the lists need none, so a wrong stored
   * key still lists voices (spec: Voices); it is refused when speaking.
   */
  async listVoices(request: VoiceListRequest): Promise<Voice[]> {
    const lists = await Promise.all(
      vendorEModelLists(request.model).map((path) =>
        this.getJson<{ tts?: unknown }>(path, {}, request.signal),
      ),
    );
    return vendorEVoices(lists, request.model);
  }
}

export const createVendorEAdapter: AdapterFactory = (options) => new VendorEAdapter(options);
