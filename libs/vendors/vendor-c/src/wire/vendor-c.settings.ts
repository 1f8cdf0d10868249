import { RouterError, type SynthSettings } from '@router/contracts';
import { resolveSettings, type ClientSettings, flagIsSet } from '@router/vendors-core';
import { vendorC } from '../vendor-c.definition';
import type { SchemaIssue } from './vendor-c.errors';
import { outputFormat, vendorCOutputFormat } from './vendor-c.formats';
import { isDialogueModel } from './vendor-c.models';
import { locatorIssues, type DialogueRequest, type OutputQuery, type TtsRequest } from './vendor-c.requests';
import { dialogueSettingsIssues, isObject, settingsIssues } from './vendor-c.schema';
import { issuesMessage, type SocketQuery, type StreamInputMessage } from './vendor-c.socket';

/*
 * Between the router's SynthSettings and vendor_c's own request, both ways: the adapter builds the vendor
 * request from settings (`vendorCRequest`); the mirror reads settings back from a request its clients send
 * (`vendorCSynthSettings`), so that equal settings give equal SynthSettings, and one cache key, whichever
 * surface they came through.
 */

/** Options that become the endpoint, the query or the word timings instead of a body field of the same name. */
const NOT_IN_BODY: ReadonlySet<string> = new Set([
  'bitrate',
  'sync_alignment',
  'preferred_alignment',
  'enable_logging',
  'enable_ssml_parsing',
]);

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
  const dialogue = isDialogueModel(settings.model);
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

/**
 * The settings a vendor_c request carries, in the vendor's terms, once parsed (REST: the path's voice, the
 * query and the body; sockets: the path's voice, the query and the init message).
 */
export interface VendorCSettingsSource {
  readonly voiceId: string;
  readonly model: string;
  readonly languageCode: string | undefined;
  /** The `output_format` token. */
  readonly outputFormat: string;
  readonly enableLogging: boolean;
  readonly enableSsmlParsing: boolean;
  /** Body or message fields by the vendor's names (`voice_settings`, `seed` …). */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Body fields that become a router option of the same name. */
const OPTION_FIELDS = [
  'voice_settings',
  'pronunciation_dictionary_locators',
  'apply_text_normalization',
  'apply_language_text_normalization',
] as const;

/**
 * Fields that change the audio but have no router setting: a request with any of them cannot be the same
 * take as a sentence of /v1/stream. Read from a vendor_c client they are options of their own (the vendor
 * mode keeps them), which `vendorCRequest` sends in the body under their names: they reach the vendor and
 * the key.
 */
export const FIELDS_WITHOUT_SETTING: readonly string[] = [
  'seed',
  'previous_text',
  'next_text',
  'previous_request_ids',
  'next_request_ids',
  'use_pvc_as_ivc',
];

/** A text-to-speech request's settings: its query (`enable_ssml_parsing` is read as the adapter sends it). */
export function ttsSettingsSource(
  output: OutputQuery,
  request: TtsRequest,
  query: URLSearchParams,
): VendorCSettingsSource {
  return {
    voiceId: request.voiceId,
    model: request.model,
    languageCode: request.languageCode,
    outputFormat: output.formatName,
    enableLogging: output.enableLogging,
    enableSsmlParsing: flagIsSet(query.get('enable_ssml_parsing')),
    fields: request.body,
  };
}

/** A one-voice text-to-dialogue request's settings (its `settings` are the voice settings). */
export function dialogueSettingsSource(
  output: OutputQuery,
  request: DialogueRequest,
  query: URLSearchParams,
): VendorCSettingsSource {
  const { settings, ...fields } = request.body;
  return {
    voiceId: request.inputs[0]?.voiceId ?? '',
    model: request.model,
    languageCode: request.languageCode,
    outputFormat: output.formatName,
    enableLogging: output.enableLogging,
    enableSsmlParsing: flagIsSet(query.get('enable_ssml_parsing')),
    fields: { ...fields, voice_settings: settings },
  };
}

/** A socket's settings: its query, and the voice settings and dictionaries of the message opening the text. */
export function socketSettingsSource(
  voiceId: string,
  query: SocketQuery,
  init: Pick<StreamInputMessage, 'voiceSettings' | 'pronunciationDictionaryLocators'>,
): VendorCSettingsSource {
  return {
    voiceId,
    model: query.model,
    languageCode: query.languageCode,
    outputFormat: query.output.formatName,
    enableLogging: query.output.enableLogging,
    enableSsmlParsing: query.enableSsmlParsing,
    fields: {
      voice_settings: init.voiceSettings,
      pronunciation_dictionary_locators: init.pronunciationDictionaryLocators,
      apply_text_normalization: query.applyTextNormalization,
      seed: query.seed,
    },
  };
}

/**
 * The router's settings as a native client would send them for the same request, with the fields no setting
 * carries beside them (`FIELDS_WITHOUT_SETTING`, which only the vendor mode takes). Voice settings go as sent:
 * the vendor mode reads their null fields and `{}` as the vendor does. `sync_alignment` is left to its default
 * (on): the take then carries character timings, which serve every endpoint, timed or not.
 */
export function vendorCClientSettings(source: VendorCSettingsSource): ClientSettings {
  const audio = outputFormat(source.outputFormat);
  const options: Record<string, unknown> = {
    enable_logging: source.enableLogging,
    enable_ssml_parsing: source.enableSsmlParsing,
  };
  for (const name of [...OPTION_FIELDS, ...FIELDS_WITHOUT_SETTING]) {
    const value = source.fields[name];
    if (value !== undefined && value !== null) options[name] = value;
  }
  if (audio?.codec === 'mp3' && audio.bitrateKbps !== undefined) options['bitrate'] = `${audio.bitrateKbps}k`;
  return {
    model: source.model,
    voice: source.voiceId,
    language: source.languageCode ?? null,
    format: audio?.codec ?? null,
    sampleRate: audio?.sampleRate ?? null,
    speed: null,
    options,
  };
}

/**
 * The SynthSettings a vendor_c request stands for, resolved as the native surfaces resolve theirs (streaming
 * rates) but by the vendor's rules (`resolveSettings`'s vendor mode): partial voice settings are kept as sent
 * (their null fields left out, `{}` as no settings: the vendor takes what is missing from the voice's stored
 * settings, whose fingerprint then enters the key), fields of theirs the router does not know and the fields
 * no setting carries (`FIELDS_WITHOUT_SETTING`) go on to the vendor as sent. Opus, which the router's catalogue
 * does not offer (no native client can ask for it, so no key is shared), becomes format `opus` with its
 * `bitrate`, the rest resolved as for pcm at its rate. Throws the router's `bad_request` for what the vendor
 * refuses, in the vendor's words where its schema says it (voice settings, dictionary locators).
 */
export function vendorCSynthSettings(source: VendorCSettingsSource): { settings: SynthSettings } {
  const issues = vendorIssues(source);
  if (issues.length > 0) throw RouterError.badRequest(issuesMessage(issues));
  const client = vendorCClientSettings(source);
  const audio = outputFormat(source.outputFormat);
  const settings =
    audio?.codec === 'opus' && audio.bitrateKbps !== undefined
      ? opusSettings(client, audio.bitrateKbps)
      : resolveSettings(vendorC, client, 'stream', 'vendor');
  return { settings };
}

/** What the vendor's own schema refuses of the settings' objects, at the fields as a socket message names them. */
function vendorIssues(source: VendorCSettingsSource): SchemaIssue[] {
  const voiceSettings = source.fields['voice_settings'];
  const loc = ['voice_settings'];
  const settings = isDialogueModel(source.model)
    ? dialogueSettingsIssues(voiceSettings, loc)
    : isObject(voiceSettings)
      ? settingsIssues(voiceSettings, loc)
      : voiceSettings === undefined || voiceSettings === null
        ? []
        : [{ loc, msg: 'value is not a valid dict', type: 'type_error.dict' }];
  const locators = source.fields['pronunciation_dictionary_locators'];
  return [...settings, ...locatorIssues(locators, ['pronunciation_dictionary_locators'])];
}

function opusSettings(client: ClientSettings, kbps: number): SynthSettings {
  const resolved = resolveSettings(vendorC, { ...client, format: 'pcm' }, 'stream', 'vendor');
  return { ...resolved, format: 'opus', options: { ...resolved.options, bitrate: `${kbps}k` } };
}
