import { RouterError, type SynthSettings } from '@router/contracts';
import {
  HttpVendorAdapter,
  audioPassThrough,
  parseJsonObject,
  readRefusal,
  stringAt,
  textLines,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type UpstreamBody,
  type VendorId,
  type Voice,
  type VoiceListRequest,
  readAllPages,
  vendorMalformed,
  type JsonValue,
  type StoredReference,
  type StoredSettingsReader,
} from '@router/vendors-core';
import { vendorCStoredPath, vendorCStoredReferences } from './vendor-c.stored-settings';
import { vendorCDropIn } from './wire/vendor-c.request-key';
import { vendorC } from './vendor-c.definition';
import { vendorCNextPageToken, vendorCVoicePagePath, vendorCVoices } from './vendor-c.voices';
import { CharacterTrack, preferredAlignment, wordTimings } from './vendor-c.word-timings';

const VENDOR: VendorId = 'vendor_c';

/** The mp3 bitrate each rate comes at when the `bitrate` option is left out (spec: Options). */
const DEFAULT_MP3_KBPS: Readonly<Record<number, number>> = { 22050: 32, 24000: 48, 44100: 128 };

/** Options that become the endpoint, the query or the word timings instead of a body field of the same name. */
const NOT_IN_BODY: ReadonlySet<string> = new Set([
  'bitrate',
  'sync_alignment',
  'preferred_alignment',
  'enable_logging',
  'enable_ssml_parsing',
]);

/** `output_format`: `<codec>_<rate>[_<kbps>]`. */
export function vendorCOutputFormat(settings: SynthSettings): string {
  const rate = settings.sampleRate;
  switch (settings.format) {
    case 'pcm':
    case 'wav':
    case 'alaw':
      return `${settings.format}_${rate}`;
    case 'mulaw':
      return `ulaw_${rate}`;
    case 'mp3': {
      const bitrate = settings.options['bitrate'];
      const kbps = typeof bitrate === 'string' ? Number.parseInt(bitrate, 10) : DEFAULT_MP3_KBPS[rate];
      if (kbps === undefined || Number.isNaN(kbps)) {
        throw RouterError.badRequest(`${VENDOR} has no mp3 at ${rate} Hz without a bitrate`);
      }
      return `mp3_${rate}_${kbps}`;
    }
    default:
      throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  }
}

export interface VendorCRequest {
  /** Path under the vendor base, with its query. */
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** The answer is JSON lines with character alignments (`sync_alignment`), not raw audio. */
  readonly timestamps: boolean;
}

/**
 * The vendor request for one piece: the streaming endpoint (audio as it is made), `/with-timestamps` when
 * word timings are wanted, and text-to-dialogue for the dialogue models (whose voice settings travel as
 * `settings`). Options go where the vendor takes them: `output_format`, `enable_logging` and
 * `enable_ssml_parsing` in the query, the rest in the body under their own names.
 */
export function vendorCRequest(settings: SynthSettings, text: string): VendorCRequest {
  const dialogue = vendorC.modelTraits[settings.model]?.dialogue === true;
  const timestamps = settings.options['sync_alignment'] !== false;
  const query = new URLSearchParams({ output_format: vendorCOutputFormat(settings) });
  const logging = settings.options['enable_logging'];
  if (typeof logging === 'boolean') query.set('enable_logging', String(logging));
  // The REST endpoints know SSML parsing only as the opt-in; the default (off) is left unsaid.
  if (settings.options['enable_ssml_parsing'] === true) query.set('enable_ssml_parsing', 'true');

  const body: Record<string, unknown> = dialogue
    ? { inputs: [{ text, voice_id: settings.voice }], model_id: settings.model }
    : { text, model_id: settings.model };
  if (settings.language !== null) body['language_code'] = settings.language;
  for (const [name, value] of Object.entries(settings.options)) {
    if (NOT_IN_BODY.has(name) || value === null || value === undefined) continue;
    body[dialogue && name === 'voice_settings' ? 'settings' : name] = value;
  }
  const base = dialogue
    ? '/v1/text-to-dialogue/stream'
    : `/v1/text-to-speech/${encodeURIComponent(settings.voice)}/stream`;
  return { path: `${base}${timestamps ? '/with-timestamps' : ''}?${query.toString()}`, body, timestamps };
}

/** The vendor's refusal text: `detail.message`, a schema error's `loc: msg` list, a plain `detail`, else the body. */
export function vendorCErrorMessage(body: string): string {
  return readRefusal(body, ({ detail }) => {
    if (!Array.isArray(detail)) return stringAt(detail) ?? stringAt(detail, 'message');
    return detail
      .map((issue: { loc?: unknown; msg?: unknown }) =>
        Array.isArray(issue.loc) ? `${issue.loc.join('.')}: ${String(issue.msg)}` : String(issue.msg),
      )
      .join('; ');
  });
}

interface TimestampedChunk {
  audio_base64?: unknown;
  alignment?: unknown;
  normalized_alignment?: unknown;
}

/**
 * vendor_c over its streaming REST endpoints with keep-alive. Without `sync_alignment` the audio bytes pass
 * through as they arrive; with it (the default) each JSON line's audio is yielded as it arrives, its character
 * alignments are collected, and once the take is complete the words of the text are yielded with their
 * times. The org's key goes in `vendor_c-api-key`.
 */
export class VendorCAdapter extends HttpVendorAdapter {
  /** A voice's stored settings and unversioned dictionaries, read with the org's key (libs/pipeline StoredSettings). */
  readonly storedSettings: StoredSettingsReader = {
    references: vendorCStoredReferences,
    read: (reference, call) => this.readStored(reference, call),
  };

  /** The REST/SSE endpoints of the drop-in, sent on whole (libs/pipeline request takes). */
  override readonly dropIn = vendorCDropIn;

  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorCErrorMessage);
  }

  protected override upstreamAuth(apiKey: string): Record<string, string> {
    return { 'vendor_c-api-key': apiKey };
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const { path, body, timestamps } = vendorCRequest(call.settings, call.text);
    const headers = this.upstreamAuth(call.apiKey);
    const read = timestamps ? (answer: UpstreamBody) => timedAudio(answer, call) : audioPassThrough;
    yield* this.exchange({ path, body, headers, signal: call.signal }, read);
  }

  /**
   * A voice's stored settings as the vendor answers them; a dictionary as its latest version id (the one
   * thing that changes when its rules do).
   */
  private async readStored(
    reference: StoredReference,
    call: { apiKey: string; signal: AbortSignal },
  ): Promise<JsonValue> {
    const target = vendorCStoredPath(reference);
    if (!target) throw new RouterError('internal', `${VENDOR} stores nothing named ${reference.name}`);
    const answer = await this.getJson<Record<string, JsonValue>>(
      target.path,
      this.upstreamAuth(call.apiKey),
      call.signal,
    );
    if (target.what === 'settings') return answer;
    const version = answer['latest_version_id'];
    if (typeof version !== 'string') throw vendorMalformed(VENDOR, 'a dictionary without latest_version_id');
    return { latest_version_id: version };
  }

  /** Every page of the account's voices (`/v2/voices`), read live. */
  async listVoices(request: VoiceListRequest): Promise<Voice[]> {
    const headers = this.upstreamAuth(request.apiKey);
    const pages = await readAllPages(
      VENDOR,
      (token) =>
        this.getJson<{ voices?: unknown; has_more?: unknown; next_page_token?: unknown }>(
          vendorCVoicePagePath(token),
          headers,
          request.signal,
        ),
      vendorCNextPageToken,
    );
    return vendorCVoices(pages, request.model);
  }
}

/** The `/with-timestamps` answer: JSON lines of base64 audio and character alignments, then the words. */
async function* timedAudio(
  body: UpstreamBody,
  { settings, text }: SynthesisCall,
): AsyncGenerator<SynthesisEvent> {
  const original = new CharacterTrack();
  const normalized = new CharacterTrack();
  for await (const line of textLines(body.textChunks())) {
    if (line.trim() === '') continue;
    const chunk = parseJsonObject<TimestampedChunk>(VENDOR, line, 'a stream line');
    if (typeof chunk.audio_base64 === 'string' && chunk.audio_base64 !== '') {
      yield { kind: 'audio', data: Buffer.from(chunk.audio_base64, 'base64') };
    }
    original.add(chunk.alignment);
    normalized.add(chunk.normalized_alignment);
  }
  if (original.length > 0 || normalized.length > 0) {
    const preferred = preferredAlignment(settings.options['preferred_alignment'], settings.language);
    yield { kind: 'words', words: wordTimings(text, { original, normalized }, preferred, settings.language) };
  }
}

export const createVendorCAdapter: AdapterFactory = (options) => new VendorCAdapter(options);
