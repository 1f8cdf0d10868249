import {
  HttpVendorAdapter,
  audioPassThrough,
  textLines,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type UpstreamAccess,
  type UpstreamBody,
  type VoiceListRequest,
  readAllPages,
  vendorMalformed,
  type JsonValue,
} from '@router/vendors-core';
import { vendorCStoredPath, vendorCStoredReferences } from './vendor-c.stored-settings';
import { vendorCErrorMessage } from './wire/vendor-c.errors';
import { VENDOR_C_KEY } from './wire/vendor-c.key';
import { readTimestampedLine } from './wire/vendor-c.responses';
import { vendorCRequest } from './wire/vendor-c.settings';
import { vendorCNextPageToken, vendorCVoicePagePath, vendorCVoices } from './vendor-c.voices';
import { CharacterTrack, characterTimings, preferredAlignment, wordTimings } from './vendor-c.word-timings';

/**
 * vendor_c over its streaming REST endpoints with keep-alive. Without `sync_alignment` the audio bytes pass
 * through as they arrive; with it (the default) each JSON line's audio is yielded as it arrives, its character
 * alignments are collected, and once the take is complete the words of the text are yielded with their
 * times.
 */
export class VendorCAdapter extends HttpVendorAdapter {
  /** A voice's stored settings and unversioned dictionaries, read with the org's key (libs/pipeline StoredSettings). */
  readonly storedSettings = this.storedSettingsReader(
    vendorCStoredReferences,
    vendorCStoredPath,
    (target, call) => this.readStored(target, call),
  );

  constructor(options: AdapterOptions) {
    super(options, {
      vendor: 'vendor_c',
      keyPlacements: VENDOR_C_KEY,
      refusalText: vendorCErrorMessage,
      speech: (call) => {
        const { path, body, timestamps } = vendorCRequest(call.settings, call.text);
        return { path, body, read: timestamps ? (answer) => timedAudio(answer, call) : audioPassThrough };
      },
    });
  }

  /**
   * A voice's stored settings as the vendor answers them; a dictionary as its latest version id (the one
   * thing that changes when its rules do).
   */
  private async readStored(
    target: { path: string; what: 'settings' | 'dictionary' },
    access: UpstreamAccess,
  ): Promise<JsonValue> {
    const answer = await this.getJson<Record<string, JsonValue>>(target.path, access);
    if (target.what === 'settings') return answer;
    const version = answer['latest_version_id'];
    if (typeof version !== 'string')
      throw vendorMalformed('vendor_c', 'a dictionary without latest_version_id');
    return { latest_version_id: version };
  }

  /** Every page of the account's voices (`/v2/voices`), read live. */
  async listVoices(request: VoiceListRequest) {
    const pages = await readAllPages(
      'vendor_c',
      (token) =>
        this.getJson<{ voices?: unknown; has_more?: unknown; next_page_token?: unknown }>(
          vendorCVoicePagePath(token),
          request,
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
    const chunk = readTimestampedLine(line);
    if (typeof chunk.audio_base64 === 'string' && chunk.audio_base64 !== '') {
      yield { kind: 'audio', data: Buffer.from(chunk.audio_base64, 'base64') };
    }
    original.add(chunk.alignment);
    normalized.add(chunk.normalized_alignment);
  }
  if (original.length > 0 || normalized.length > 0) {
    const preferred = preferredAlignment(settings.options['preferred_alignment'], settings.language);
    const words = wordTimings(text, { original, normalized }, preferred, settings.language);
    const chars = characterTimings(text, original);
    yield { kind: 'words', words, ...(chars ? { chars } : {}) };
  }
}

export const createVendorCAdapter = (options: AdapterOptions) => new VendorCAdapter(options);
