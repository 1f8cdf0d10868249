import { flagIsSet } from '@router/vendors-core';
import { vendorCMessageKey } from './vendor-c.access';
import type { SchemaIssue, VendorCProblem } from './vendor-c.errors';
import { checkBoolean, checkString, dialogueSettingsIssues, isObject } from './vendor-c.schema';
import {
  contextTags,
  DEFAULT_CONTEXT_ID,
  issuesMessage,
  readStreamInputFrame,
  type StreamInputFrame,
} from './vendor-c.socket';

/*
 * The `text-to-dialogue/multi-stream-input` socket: its client messages and server frames, both directions.
 * Its query is the other sockets' (`parseSocketQuery(query, 'dialogue')`), its audio frames theirs
 * (`audioFrame`: camelCase alignment, both context spellings), its error frames `socketError`; but a context
 * ends with snake_case `is_final` (spec: vendor_c mirror), and each turn's audio with `is_final_audio_for_turn`.
 */

export interface DialogueInput {
  readonly text: string;
  readonly voiceId: string;
  /** The input starts a new speaker turn. */
  readonly newTurn: boolean;
}

/** One client message of the dialogue socket, read. */
export interface DialogueSocketMessage {
  /** The dialogue lines the message adds (empty when it adds none). */
  readonly inputs: readonly DialogueInput[];
  readonly flush: boolean;
  readonly keepAlive: boolean;
  readonly closeSocket: boolean;
  readonly closeContext: boolean;
  readonly contextId: string;
  /** The voices the context will use, announced ahead of their lines. */
  readonly voices: readonly string[] | undefined;
  /** `voice_settings` when it is valid: stability only, as on the REST dialogue endpoints. */
  readonly voiceSettings: Readonly<Record<string, unknown>> | undefined;
  readonly key: string | undefined;
}

/** A dialogue message, or the problem that refuses it (reported as an error frame, then a 1008 close). */
export function parseDialogueSocketMessage(
  message: Readonly<Record<string, unknown>>,
): { ok: true; value: DialogueSocketMessage } | { ok: false; problem: VendorCProblem } {
  const issues: SchemaIssue[] = [];
  const inputs = message['inputs'];
  if (inputs !== undefined && inputs !== null && !Array.isArray(inputs)) {
    issues.push({ loc: ['inputs'], msg: 'value is not a valid list', type: 'type_error.list' });
  }
  const read: DialogueInput[] = [];
  (Array.isArray(inputs) ? (inputs as unknown[]) : []).forEach((input, i) => {
    if (!isObject(input)) {
      issues.push({ loc: ['inputs', i], msg: 'value is not a valid dict', type: 'type_error.dict' });
      return;
    }
    const found = [
      ...checkString(input['text'], ['inputs', i, 'text'], { required: true }),
      ...checkString(input['voice_id'], ['inputs', i, 'voice_id'], { required: true, minLength: 1 }),
      ...checkBoolean(input['new_turn'], ['inputs', i, 'new_turn']),
    ];
    issues.push(...found);
    if (found.length === 0) {
      read.push({
        text: input['text'] as string,
        voiceId: input['voice_id'] as string,
        newTurn: flagIsSet(input['new_turn']),
      });
    }
  });
  const voices = message['voices'];
  if (voices !== undefined && voices !== null) {
    if (!Array.isArray(voices)) {
      issues.push({ loc: ['voices'], msg: 'value is not a valid list', type: 'type_error.list' });
    } else {
      voices.forEach((voice, i) => issues.push(...checkString(voice, ['voices', i], { required: true })));
    }
  }
  const settings = message['voice_settings'];
  issues.push(...dialogueSettingsIssues(settings, ['voice_settings']));
  if (issues.length > 0) {
    return {
      ok: false,
      problem: {
        status: 422,
        code: 'invalid_request',
        type: 'validation_error',
        message: issuesMessage(issues),
      },
    };
  }
  const contextId = message['context_id'];
  return {
    ok: true,
    value: {
      inputs: read,
      flush: flagIsSet(message['flush']),
      keepAlive: flagIsSet(message['keep_alive']),
      closeSocket: flagIsSet(message['close_socket']),
      closeContext: flagIsSet(message['close_context']),
      contextId: typeof contextId === 'string' ? contextId : DEFAULT_CONTEXT_ID,
      voices: Array.isArray(voices) ? (voices as string[]) : undefined,
      voiceSettings: isObject(settings) ? settings : undefined,
      key: vendorCMessageKey(message),
    },
  };
}

/** After the last audio of one speaker turn. */
export function turnFinalFrame(contextId?: string): Record<string, unknown> {
  return { is_final_audio_for_turn: true, ...contextTags(contextId) };
}

/** After a dialogue context's last audio, once the client has closed it. */
export function dialogueFinalFrame(contextId?: string): Record<string, unknown> {
  return { is_final: true, ...contextTags(contextId) };
}

/** A dialogue server frame as a client reads it. */
export type DialogueFrame = StreamInputFrame | { kind: 'turn-final'; contextId: string | undefined };

/** Reads a dialogue server frame (audio and errors as on the other sockets); undefined for an unknown kind. */
export function readDialogueFrame(frame: Readonly<Record<string, unknown>>): DialogueFrame | undefined {
  const tagged = frame['context_id'] ?? frame['contextId'];
  const contextId = typeof tagged === 'string' ? tagged : undefined;
  if (frame['is_final'] === true) return { kind: 'final', contextId };
  if (frame['is_final_audio_for_turn'] === true) return { kind: 'turn-final', contextId };
  return readStreamInputFrame(frame);
}
