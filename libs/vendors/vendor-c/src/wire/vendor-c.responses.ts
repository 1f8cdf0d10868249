import { randomUUID } from 'node:crypto';
import { RouterError } from '@router/contracts';
import { parseJsonObject } from '@router/vendors-core';
import { secondsAlignment, type CharTiming } from './vendor-c.alignment';
import { problemBody, vendorCErrorMessage, vendorCRequestId, type VendorCProblem } from './vendor-c.errors';
import { isObject } from './vendor-c.schema';

/*
 * The REST synthesis answers: headers, the `/with-timestamps` body, the `/stream/with-timestamps` lines and
 * dialogue voice segments. A server builds them; the adapter reads the lines back.
 */

/** The headers every synthesis answer carries; `history-item-id` only when the request is logged. */
export function synthesisHeaders(characterCount: number, enableLogging: boolean): Record<string, string> {
  return {
    'request-id': vendorCRequestId(),
    'x-character-count': String(characterCount),
    ...(enableLogging ? { 'history-item-id': randomUUID().replace(/-/g, '').slice(0, 20) } : {}),
  };
}

/** Which characters one input of a dialogue request is, and when they are spoken. */
export interface VoiceSegment {
  voice_id: string;
  start_time_seconds: number;
  end_time_seconds: number;
  character_start_index: number;
  character_end_index: number;
  dialogue_input_index: number;
}

/** The `/with-timestamps` body: the whole take's audio and alignments (and a dialogue's voice segments). */
export function timestampedBody(
  audio: Buffer,
  chars: readonly CharTiming[],
  voiceSegments?: readonly VoiceSegment[],
): Record<string, unknown> {
  return {
    audio_base64: audio.toString('base64'),
    alignment: secondsAlignment(chars),
    normalized_alignment: secondsAlignment(chars),
    ...(voiceSegments ? { voice_segments: voiceSegments } : {}),
  };
}

/** One `/stream/with-timestamps` line: a piece's audio with the characters spoken in it (null: none). */
export function timestampedLine(audio: Buffer, chars: readonly CharTiming[]): string {
  const alignment = chars.length > 0 ? secondsAlignment(chars) : null;
  return `${JSON.stringify({ audio_base64: audio.toString('base64'), alignment, normalized_alignment: alignment })}\n`;
}

/**
 * A `/stream/with-timestamps` line that reports a failure once the 200 and some lines went out: the vendor's
 * error body on a line of its own, after which the body ends.
 */
export function timestampedErrorLine(problem: VendorCProblem): string {
  return `${JSON.stringify(problemBody(problem))}\n`;
}

/**
 * Whether a timestamped object (a `/with-timestamps` body, a line of its stream) is the take's, with its
 * `audio_base64` (null on a line without audio), rather than the vendor's error body (`detail`).
 */
export function isTimestampedChunk(value: unknown): boolean {
  if (!isObject(value) || 'detail' in value) return false;
  const audio = value['audio_base64'];
  return typeof audio === 'string' || audio === null;
}

/** One timestamped line as a client reads it; its alignments are read by `readSecondsAlignment`. */
export interface TimestampedChunk {
  audio_base64?: unknown;
  alignment?: unknown;
  normalized_alignment?: unknown;
}

/**
 * A `/stream/with-timestamps` line read back: its chunk, or, for the vendor's error line, the take's failure
 * (provider_unavailable with the vendor's message); a line that is not JSON is a malformed answer.
 */
export function readTimestampedLine(line: string): TimestampedChunk {
  const chunk = parseJsonObject<TimestampedChunk>('vendor_c', line, 'a stream line');
  if (!isTimestampedChunk(chunk)) {
    throw new RouterError('provider_unavailable', `vendor_c failed the take: ${vendorCErrorMessage(line)}`);
  }
  return chunk;
}

/** Each dialogue input's voice with the span of the take's characters it speaks (inputs in order). */
export function dialogueVoiceSegments(
  inputs: readonly { text: string; voiceId: string }[],
  characters: readonly Pick<CharTiming, 'startMs' | 'endMs'>[],
): VoiceSegment[] {
  let start = 0;
  return inputs.map((input, index) => {
    const end = start + Array.from(input.text).length;
    const first = characters[start];
    const last = characters[end - 1];
    const segment = {
      voice_id: input.voiceId,
      start_time_seconds: Math.round(first?.startMs ?? 0) / 1000,
      end_time_seconds: Math.round(last?.endMs ?? 0) / 1000,
      character_start_index: start,
      character_end_index: end,
      dialogue_input_index: index,
    };
    start = end;
    return segment;
  });
}
