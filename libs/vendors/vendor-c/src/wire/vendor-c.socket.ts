import { flagIsSet } from '@router/vendors-core';
import { vendorCMessageKey } from './vendor-c.access';
import type { SchemaIssue, VendorCProblem } from './vendor-c.errors';
import type { MsAlignment } from './vendor-c.alignment';
import {
  DEFAULT_DIALOGUE_MODEL,
  DEFAULT_MODEL,
  dialogueModelProblem,
  languageProblem,
  modelProblem,
} from './vendor-c.models';
import { parseOutputQuery, type OutputQuery } from './vendor-c.requests';
import { checkEnum, isObject, queryBoolean, queryInteger, settingsIssues } from './vendor-c.schema';

/*
 * The `stream-input` and `multi-stream-input` sockets: the query, the client messages and the server frames,
 * both directions (a server builds frames and reads messages; a client the other way round).
 */

/** The chunk schedule a context uses unless a message sends `generation_config`. */
export const DEFAULT_CHUNK_SCHEDULE: readonly number[] = [120, 160, 250, 290];
/** Contexts one `multi-stream-input` socket may hold open at once. */
export const MAX_CONTEXTS = 5;
export const DEFAULT_INACTIVITY_S = 20;
export const MAX_INACTIVITY_S = 180;
/** The context a `multi-stream-input` message without `context_id` belongs to. */
export const DEFAULT_CONTEXT_ID = 'default';

export interface SocketQuery {
  readonly model: string;
  readonly languageCode: string | undefined;
  readonly output: OutputQuery;
  readonly autoMode: boolean;
  readonly syncAlignment: boolean;
  readonly enableSsmlParsing: boolean;
  readonly inactivitySeconds: number;
  readonly seed: number | undefined;
  readonly applyTextNormalization: string | undefined;
}

/** How the vendor words schema complaints on a socket, where there is no 422 body to list them in. */
export function issuesMessage(issues: readonly SchemaIssue[]): string {
  return issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ');
}

/**
 * The socket's query; a problem is reported on the socket, which then closes (1008), as the vendor does. The
 * dialogue socket takes dialogue models only, and its own default model.
 */
export function parseSocketQuery(
  query: URLSearchParams,
  socket: 'speech' | 'dialogue' = 'speech',
): { ok: true; value: SocketQuery } | { ok: false; message: string } {
  const output = parseOutputQuery(query);
  const inactivity = queryInteger(query, 'inactivity_timeout', DEFAULT_INACTIVITY_S, 1, MAX_INACTIVITY_S);
  const autoMode = queryBoolean(query, 'auto_mode', false);
  const syncAlignment = queryBoolean(query, 'sync_alignment', false);
  const ssml = queryBoolean(query, 'enable_ssml_parsing', false);
  const seed = queryInteger(query, 'seed', undefined, 0, 4_294_967_295);
  const normalization = query.get('apply_text_normalization') ?? undefined;
  const issues = [
    ...(output.ok ? [] : output.issues),
    ...inactivity.issues,
    ...autoMode.issues,
    ...syncAlignment.issues,
    ...ssml.issues,
    ...seed.issues,
    ...checkEnum(normalization, ['query', 'apply_text_normalization'], ['auto', 'on', 'off']),
  ];
  if (!output.ok || issues.length > 0) return { ok: false, message: issuesMessage(issues) };
  const dialogue = socket === 'dialogue';
  const model = query.get('model_id') ?? (dialogue ? DEFAULT_DIALOGUE_MODEL : DEFAULT_MODEL);
  const languageCode = query.get('language_code') ?? undefined;
  const problem =
    modelProblem(model) ??
    (dialogue ? dialogueModelProblem(model) : undefined) ??
    languageProblem(model, languageCode);
  if (problem) return { ok: false, message: problem.message };
  return {
    ok: true,
    value: {
      model,
      languageCode,
      output: output.value,
      autoMode: autoMode.value,
      syncAlignment: syncAlignment.value,
      enableSsmlParsing: ssml.value,
      inactivitySeconds: inactivity.value ?? DEFAULT_INACTIVITY_S,
      seed: seed.value,
      applyTextNormalization: normalization,
    },
  };
}

/** One client message of either socket, read; what it means depends on the session's state. */
export interface StreamInputMessage {
  /** `text` when it is a string. */
  readonly text: string | undefined;
  readonly flush: boolean;
  readonly tryTriggerGeneration: boolean;
  /** `voice_settings` when it is an object and valid. */
  readonly voiceSettings: Readonly<Record<string, unknown>> | undefined;
  /** Why `voice_settings` is refused; reported where the session applies the message's settings. */
  readonly settingsProblem: VendorCProblem | undefined;
  /** `generation_config.chunk_length_schedule`, the usable lengths only. */
  readonly chunkSchedule: readonly number[] | undefined;
  readonly pronunciationDictionaryLocators: unknown;
  /** The key a first message may carry: `vendor_c_api_key`, or `authorization: "Bearer <key>"`. */
  readonly key: string | undefined;
  /** `multi-stream-input` only: the message's context (`default` when it names none). */
  readonly contextId: string;
  readonly closeContext: boolean;
  readonly closeSocket: boolean;
}

export function parseStreamInputMessage(message: Readonly<Record<string, unknown>>): StreamInputMessage {
  const text = message['text'];
  const settings = message['voice_settings'];
  const issues = isObject(settings) ? settingsIssues(settings, ['voice_settings']) : [];
  const config = message['generation_config'];
  const requested =
    isObject(config) && Array.isArray(config['chunk_length_schedule'])
      ? config['chunk_length_schedule'].filter((n): n is number => typeof n === 'number' && n >= 1)
      : [];
  const contextId = message['context_id'];
  return {
    text: typeof text === 'string' ? text : undefined,
    flush: flagIsSet(message['flush']),
    tryTriggerGeneration: flagIsSet(message['try_trigger_generation']),
    voiceSettings: isObject(settings) && issues.length === 0 ? settings : undefined,
    settingsProblem:
      issues.length > 0
        ? { status: 422, code: 'invalid_request', type: 'validation_error', message: issuesMessage(issues) }
        : undefined,
    chunkSchedule: requested.length > 0 ? requested : undefined,
    pronunciationDictionaryLocators: message['pronunciation_dictionary_locators'],
    key: vendorCMessageKey(message),
    contextId: typeof contextId === 'string' ? contextId : DEFAULT_CONTEXT_ID,
    closeContext: flagIsSet(message['close_context']),
    closeSocket: flagIsSet(message['close_socket']),
  };
}

/** The context tags of a `multi-stream-input` frame: both spellings, since clients read either. */
export function contextTags(contextId: string | undefined): Record<string, string> {
  return contextId === undefined ? {} : { contextId, context_id: contextId };
}

/** An audio frame: base64 audio with the characters spoken in it (camelCase, ms from the frame's start). */
export function audioFrame(
  audio: Buffer,
  alignment: MsAlignment,
  contextId?: string,
): Record<string, unknown> {
  return {
    audio: audio.toString('base64'),
    normalizedAlignment: alignment,
    alignment,
    ...contextTags(contextId),
  };
}

/** The frame after a stream's or a context's last audio. */
export function finalFrame(contextId?: string): Record<string, unknown> {
  return { isFinal: true, ...contextTags(contextId) };
}

/** The refusal of a context past `MAX_CONTEXTS` (sent as an error frame; the socket stays open). */
export const TOO_MANY_CONTEXTS: Pick<VendorCProblem, 'status' | 'code' | 'message'> = {
  status: 429,
  code: 'max_active_contexts',
  message: `At most ${MAX_CONTEXTS} contexts can be open at once`,
};

/** The close reason of a socket that received no text for its inactivity timeout (closed with 1008). */
export function inactivityReason(timeoutMs: number): string {
  return `Have not received new text for ${Math.round(timeoutMs / 1000)} seconds. Closing the connection.`;
}

/** A server frame as a client reads it. */
export type StreamInputFrame =
  | { kind: 'audio'; audio: Buffer; alignment: MsAlignment | undefined; contextId: string | undefined }
  | { kind: 'final'; contextId: string | undefined }
  | { kind: 'error'; error: string; message: string; closeCode: number; contextId: string | undefined };

/** Reads a server frame (either spelling of the context id); undefined for a frame of no known kind. */
export function readStreamInputFrame(frame: Readonly<Record<string, unknown>>): StreamInputFrame | undefined {
  const tagged = frame['contextId'] ?? frame['context_id'];
  const contextId = typeof tagged === 'string' ? tagged : undefined;
  if (frame['isFinal'] === true) return { kind: 'final', contextId };
  if (typeof frame['error'] === 'string') {
    return {
      kind: 'error',
      error: frame['error'],
      message: typeof frame['message'] === 'string' ? frame['message'] : '',
      closeCode: typeof frame['code'] === 'number' ? frame['code'] : 1008,
      contextId,
    };
  }
  if (typeof frame['audio'] === 'string') {
    const alignment = frame['alignment'];
    return {
      kind: 'audio',
      audio: Buffer.from(frame['audio'], 'base64'),
      alignment: isObject(alignment) ? (alignment as unknown as MsAlignment) : undefined,
      contextId,
    };
  }
  return undefined;
}
