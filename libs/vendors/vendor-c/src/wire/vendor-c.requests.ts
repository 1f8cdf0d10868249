import type { CheckResult, SchemaIssue, VendorCProblem } from './vendor-c.errors';
import {
  DEFAULT_OUTPUT_FORMAT,
  outputFormat,
  VENDOR_C_OUTPUT_FORMATS,
  type VendorCAudio,
} from './vendor-c.formats';
import {
  DEFAULT_DIALOGUE_MODEL,
  DEFAULT_MODEL,
  dialogueModelProblem,
  languageProblem,
  modelProblem,
  textLengthProblem,
} from './vendor-c.models';
import {
  checkBoolean,
  checkEnum,
  checkNumber,
  checkString,
  checkStringArray,
  dialogueSettingsIssues,
  isObject,
  missing,
  queryBoolean,
  queryInteger,
  settingsIssues,
} from './vendor-c.schema';

/**
 * Parsing and checking vendor_c's synthesis requests as the vendor does (the simulator's and the mirror's
 * side; the adapter builds them in vendor-c.settings.ts). Whether a voice exists is the account's business:
 * the caller passes `voiceProblem`, and its answer is reported in the vendor's order.
 */
export type VoiceCheck = (voiceId: string) => VendorCProblem | undefined;

export interface OutputQuery {
  readonly formatName: string;
  readonly audio: VendorCAudio;
  readonly enableLogging: boolean;
}

/** `optimize_streaming_latency`: 0 (no optimisation, what a request that leaves it out gets) to 4. */
export const STREAMING_LATENCY = { default: 0, min: 0, max: 4 } as const;

/** `output_format`, `optimize_streaming_latency`, `enable_logging`: the query every synthesis path takes. */
export function parseOutputQuery(
  query: URLSearchParams,
): { ok: true; value: OutputQuery } | { ok: false; issues: SchemaIssue[] } {
  const formatName = query.get('output_format') ?? DEFAULT_OUTPUT_FORMAT;
  const audio = outputFormat(formatName);
  const issues: SchemaIssue[] = [];
  if (!audio) {
    issues.push({
      loc: ['query', 'output_format'],
      msg: `value is not a valid enumeration member; permitted: ${[...VENDOR_C_OUTPUT_FORMATS.keys()].join(', ')}`,
      type: 'type_error.enum',
    });
  }
  const { default: latency, min, max } = STREAMING_LATENCY;
  issues.push(...queryInteger(query, 'optimize_streaming_latency', latency, min, max).issues);
  const logging = queryBoolean(query, 'enable_logging', true);
  issues.push(...logging.issues);
  if (!audio || issues.length > 0) return { ok: false, issues };
  return { ok: true, value: { formatName, audio, enableLogging: logging.value } };
}

/** Checks dictionary locators found at `loc` (a REST body's, or a socket message's). */
export function locatorIssues(
  value: unknown,
  loc: readonly (string | number)[] = ['body', 'pronunciation_dictionary_locators'],
): SchemaIssue[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return [{ loc, msg: 'value is not a valid list', type: 'type_error.list' }];
  if (value.length > 3)
    return [{ loc, msg: 'ensure this value has at most 3 items', type: 'value_error.list.max_items' }];
  return value.flatMap((item, i) =>
    isObject(item)
      ? [
          ...checkString(item['pronunciation_dictionary_id'], [...loc, i, 'pronunciation_dictionary_id'], {
            required: true,
          }),
          ...checkString(item['version_id'], [...loc, i, 'version_id']),
        ]
      : [{ loc: [...loc, i], msg: 'value is not a valid dict', type: 'type_error.dict' }],
  );
}

/** Body fields shared by text-to-speech and dialogue requests (everything except the text and voices). */
function commonBodyIssues(body: Record<string, unknown>): SchemaIssue[] {
  return [
    ...checkString(body['model_id'], ['body', 'model_id']),
    ...checkString(body['language_code'], ['body', 'language_code']),
    ...locatorIssues(body['pronunciation_dictionary_locators']),
    ...checkNumber(body['seed'], ['body', 'seed'], 0, 4_294_967_295, true),
    ...checkEnum(
      body['apply_text_normalization'],
      ['body', 'apply_text_normalization'],
      ['auto', 'on', 'off'],
    ),
    ...checkBoolean(body['apply_language_text_normalization'], ['body', 'apply_language_text_normalization']),
  ];
}

export interface TtsRequest {
  readonly text: string;
  readonly model: string;
  readonly voiceId: string;
  readonly languageCode: string | undefined;
  /** The checked body, for the fields that carry settings (`voice_settings`, `seed` …). */
  readonly body: Readonly<Record<string, unknown>>;
}

/**
 * A text-to-speech body for `voiceId`, checked in the vendor's order: schema (422), then model, voice,
 * language and length (400).
 */
export function parseTtsRequest(
  body: unknown,
  voiceId: string,
  voiceProblem: VoiceCheck,
): CheckResult<TtsRequest> {
  if (!isObject(body)) return { ok: false, issues: [missing(['body'])] };
  const voiceSettings = body['voice_settings'];
  const issues = [
    ...checkString(body['text'], ['body', 'text'], { required: true, minLength: 1 }),
    ...commonBodyIssues(body),
    ...checkString(body['previous_text'], ['body', 'previous_text']),
    ...checkString(body['next_text'], ['body', 'next_text']),
    ...checkStringArray(body['previous_request_ids'], ['body', 'previous_request_ids'], 3),
    ...checkStringArray(body['next_request_ids'], ['body', 'next_request_ids'], 3),
    ...checkBoolean(body['use_pvc_as_ivc'], ['body', 'use_pvc_as_ivc']),
    ...(voiceSettings === undefined || voiceSettings === null
      ? []
      : isObject(voiceSettings)
        ? settingsIssues(voiceSettings, ['body', 'voice_settings'])
        : [{ loc: ['body', 'voice_settings'], msg: 'value is not a valid dict', type: 'type_error.dict' }]),
  ];
  if (issues.length > 0) return { ok: false, issues };
  const text = body['text'] as string;
  const model = (body['model_id'] as string | undefined) ?? DEFAULT_MODEL;
  const languageCode = (body['language_code'] as string | null | undefined) ?? undefined;
  const problem =
    modelProblem(model) ??
    voiceProblem(voiceId) ??
    languageProblem(model, languageCode) ??
    textLengthProblem(model, text);
  if (problem) return { ok: false, problem };
  return { ok: true, value: { text, model, voiceId, languageCode, body } };
}

export interface DialogueRequest {
  readonly inputs: readonly { text: string; voiceId: string }[];
  readonly model: string;
  readonly languageCode: string | undefined;
  /** The checked body, for the fields that carry settings (`settings`, `seed` …). */
  readonly body: Readonly<Record<string, unknown>>;
}

/** A text-to-dialogue body: dialogue models only, every input's voice known, `settings` holds stability only. */
export function parseDialogueRequest(body: unknown, voiceProblem: VoiceCheck): CheckResult<DialogueRequest> {
  if (!isObject(body)) return { ok: false, issues: [missing(['body'])] };
  const inputs = body['inputs'];
  const issues: SchemaIssue[] = [...commonBodyIssues(body)];
  if (!Array.isArray(inputs) || inputs.length === 0) {
    issues.push(
      inputs === undefined
        ? missing(['body', 'inputs'])
        : {
            loc: ['body', 'inputs'],
            msg: 'ensure this value has at least 1 items',
            type: 'value_error.list.min_items',
          },
    );
  } else {
    inputs.forEach((input, i) => {
      if (!isObject(input)) {
        issues.push({
          loc: ['body', 'inputs', i],
          msg: 'value is not a valid dict',
          type: 'type_error.dict',
        });
        return;
      }
      issues.push(
        ...checkString(input['text'], ['body', 'inputs', i, 'text'], { required: true, minLength: 1 }),
        ...checkString(input['voice_id'], ['body', 'inputs', i, 'voice_id'], {
          required: true,
          minLength: 1,
        }),
      );
    });
  }
  issues.push(...dialogueSettingsIssues(body['settings'], ['body', 'settings']));
  if (issues.length > 0) return { ok: false, issues };
  const pairs = (inputs as Record<string, string>[]).map((input) => ({
    text: input['text'] ?? '',
    voiceId: input['voice_id'] ?? '',
  }));
  const model = (body['model_id'] as string | undefined) ?? DEFAULT_DIALOGUE_MODEL;
  const languageCode = (body['language_code'] as string | null | undefined) ?? undefined;
  const unusable = pairs.map((p) => voiceProblem(p.voiceId)).find((found) => found !== undefined);
  const problem =
    modelProblem(model) ??
    dialogueModelProblem(model) ??
    unusable ??
    languageProblem(model, languageCode) ??
    textLengthProblem(model, pairs.map((p) => p.text).join('\n'));
  if (problem) return { ok: false, problem };
  return { ok: true, value: { inputs: pairs, model, languageCode, body } };
}
