import type { RouterAudioEncoding } from '@router/vendors-core';
import { readVendorESocketEncoding } from './vendor-e.formats';
import { VENDOR_E_DEFAULT_V1_MODEL, VENDOR_E_GENERATIONS, VENDOR_E_TEXT_LIMIT } from './vendor-e.requests';
import type { VendorEGeneration, VendorEVoiceModel } from './vendor-e.voices';

/*
 * vendor_e's streaming sockets `/v1/speak` and `/v2/speak`: the handshake (key, query), what a client sends
 * (`Speak`, `Flush`, `Clear`, `Interrupt`, `Configure`, `Close`) as a server reads it, and the JSON messages
 * a server sends (audio itself goes in binary frames). Errors are `Error` messages `{code, description}`;
 * fatal ones close the socket (1011 for the vendor's failures, 1008 for bad messages, 1009 for too much text).
 */

/** The vendor closes a socket after this long without a client message (`NET-0001`). */
export const VENDOR_E_IDLE_MS = 30 * 60_000;
/** The second generation's socket takes speed in 0.05 steps from 0.85 to 1.15. */
export const V2_SPEED = { min: 0.85, max: 1.15, step: 0.05 };

export interface VendorESocketSettings {
  readonly model: VendorEVoiceModel;
  /** Raw audio only on the sockets (no container). */
  readonly spec: RouterAudioEncoding;
  readonly speed: number;
}

/** The second generation's speed rule; a message for a refusal, or null. */
export function v2SpeedProblem(speed: number): string | null {
  const steps = (speed - V2_SPEED.min) / V2_SPEED.step;
  if (
    !(speed >= V2_SPEED.min - 1e-9 && speed <= V2_SPEED.max + 1e-9) ||
    Math.abs(steps - Math.round(steps)) > 1e-6
  ) {
    return `speed must be between ${V2_SPEED.min} and ${V2_SPEED.max} in steps of ${V2_SPEED.step}`;
  }
  return null;
}

/** A socket's query (settings are fixed for the connection, apart from v2 `Configure`). */
export function parseVendorESocketQuery(
  generation: VendorEGeneration,
  query: URLSearchParams,
  findModel: (name: string) => VendorEVoiceModel | undefined,
): { ok: true; settings: VendorESocketSettings } | { ok: false; message: string } {
  const name = query.get('model') ?? (generation === 'v1' ? VENDOR_E_DEFAULT_V1_MODEL : null);
  if (name === null) return { ok: false, message: 'model is required' };
  const model = findModel(name);
  if (!model || VENDOR_E_GENERATIONS[model.architecture] !== generation) {
    return { ok: false, message: `Model ${name} is not available on /${generation}/speak` };
  }
  const encoding = readVendorESocketEncoding(generation, query);
  if (!encoding.ok) return { ok: false, message: encoding.message };
  const speedText = query.get('speed');
  const speed = speedText === null ? 1.0 : Number(speedText);
  const speedProblem =
    generation === 'v2'
      ? v2SpeedProblem(speed)
      : speed >= 0.7 && speed <= 1.5
        ? null
        : 'speed must be between 0.7 and 1.5';
  if (speedProblem) return { ok: false, message: speedProblem };
  const expressivity = query.get('expressivity');
  if (generation === 'v2' && expressivity !== null && !['-2', '-1', '0', '1', '2'].includes(expressivity)) {
    return { ok: false, message: 'expressivity must be an integer from -2 to 2' };
  }
  return { ok: true, settings: { model, spec: encoding.spec, speed } };
}

/** A fatal socket error: the message sent, then the close code. */
export interface VendorEFatal {
  readonly code: string;
  readonly description: string;
  readonly closeCode: number;
}

export type VendorEClientMessage =
  | { readonly kind: 'speak'; readonly text: string }
  | { readonly kind: 'control'; readonly type: string; readonly message: Record<string, unknown> }
  | { readonly kind: 'fatal'; readonly fatal: VendorEFatal };

/** A client message as the vendor reads it; `buffered` is the text already waiting for a flush. */
export function readVendorEClientMessage(
  message: Record<string, unknown> | undefined,
  buffered: number,
): VendorEClientMessage {
  if (!message || typeof message['type'] !== 'string') {
    return fatal('DATA-0000', 'Could not decode the message as JSON with a type', 1008);
  }
  if (message['type'] !== 'Speak') return { kind: 'control', type: message['type'], message };
  const text = message['text'];
  if (typeof text !== 'string') return fatal('DATA-0000', 'Speak needs a string text', 1008);
  if (buffered + text.length > VENDOR_E_TEXT_LIMIT) {
    return fatal('BIG-0000', `Text exceeds ${VENDOR_E_TEXT_LIMIT} characters before a Flush`, 1009);
  }
  return { kind: 'speak', text };
}

function fatal(code: string, description: string, closeCode: number): VendorEClientMessage {
  return { kind: 'fatal', fatal: { code, description, closeCode } };
}

export const VENDOR_E_IDLE_FATAL: VendorEFatal = {
  code: 'NET-0001',
  description: 'No messages received: idle timeout',
  closeCode: 1011,
};

export function vendorEUnknownType(type: string): VendorEFatal {
  return { code: 'MESSAGE-0000', description: `Unknown message type: ${type}`, closeCode: 1008 };
}

export function vendorESocketError(code: string, description: string): Record<string, unknown> {
  return { type: 'Error', code, description };
}

/** The first message of a socket: `Metadata` on v1, `Connected` on v2. */
export function vendorEOpening(
  generation: VendorEGeneration,
  model: VendorEVoiceModel,
  requestId: string,
): Record<string, unknown> {
  const common = { request_id: requestId, model_name: model.canonical_name, model_version: model.version };
  return generation === 'v1'
    ? { type: 'Metadata', ...common, model_uuid: model.uuid }
    : { type: 'Connected', ...common, model_uuids: [model.uuid] };
}

/** v1: a flush's audio is done (`sequence_id`), or the buffer was cleared. */
export function vendorEV1Flushed(sequenceId: number): Record<string, unknown> {
  return { type: 'Flushed', sequence_id: sequenceId };
}

export function vendorEV1Cleared(sequenceId: number): Record<string, unknown> {
  return { type: 'Cleared', sequence_id: sequenceId };
}

/** v2 turn messages. */
export function vendorEWarning(code: 'EMPTY_TURN' | 'NO_ACTIVE_SPEECH'): Record<string, unknown> {
  const description = code === 'EMPTY_TURN' ? 'Flush with no text' : 'Nothing to interrupt';
  return { type: 'Warning', code, description };
}

export function vendorESpeechStarted(speechId: string): Record<string, unknown> {
  return { type: 'SpeechStarted', speech_id: speechId };
}

export function vendorEV2Flushed(speechId: string): Record<string, unknown> {
  return { type: 'Flushed', speech_id: speechId };
}

/** A turn's summary; `billableChars` (all of them where left out) counts what the vendor synthesized. */
export function vendorESpeechMetadata(
  speechId: string,
  audioMs: number,
  chars: number,
  billableChars = chars,
): Record<string, unknown> {
  return {
    type: 'SpeechMetadata',
    speech_id: speechId,
    audio_duration_ms: Math.round(audioMs),
    input_character_count: chars,
    billable_character_count: billableChars,
    controls_applied: { pronunciations_applied: 0, pronunciation_warnings: 0 },
  };
}

/** An interrupted turn; the router's mirror also splits its text (`text_spoken`, `text_remaining`). */
export function vendorESpeechInterrupted(
  speechId: string,
  playedMs: number,
  text?: { spoken: string; remaining: string },
): Record<string, unknown> {
  return {
    type: 'SpeechInterrupted',
    speech_id: speechId,
    audio_played_ms: Math.round(playedMs),
    ...(text ? { text_spoken: text.spoken, text_remaining: text.remaining } : {}),
  };
}

export function vendorESessionMetadata(totals: {
  audioMs: number;
  inputChars: number;
  billableChars: number;
}): Record<string, unknown> {
  return {
    type: 'SessionMetadata',
    total_audio_duration_ms: Math.round(totals.audioMs),
    total_input_character_count: totals.inputChars,
    total_billable_character_count: totals.billableChars,
  };
}

/** A v2 `Configure` as the vendor reads it: only `speed` can change, by the v2 speed rule. */
export function readVendorEConfigure(
  message: Record<string, unknown>,
): { ok: true; speed: number } | { ok: false; reply: Record<string, unknown> } {
  const failure = (
    field: string,
    value: unknown,
    description: string,
  ): { ok: false; reply: Record<string, unknown> } => ({
    ok: false,
    reply: { type: 'ConfigureFailure', code: 'INVALID_VALUE', field, value, description },
  });
  const unknown = Object.keys(message).find((k) => k !== 'type' && k !== 'speed');
  if (unknown !== undefined) return failure(unknown, message[unknown], `${unknown} cannot be configured`);
  const speed = message['speed'];
  if (typeof speed !== 'number') return failure('speed', speed ?? null, 'speed must be a number');
  const problem = v2SpeedProblem(speed);
  if (problem) return failure('speed', speed, problem);
  return { ok: true, speed };
}

export function vendorEConfigureSuccess(speed: number): Record<string, unknown> {
  return { type: 'ConfigureSuccess', applied: { speed } };
}
