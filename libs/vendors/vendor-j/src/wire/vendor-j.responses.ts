import { stringAt } from '@router/vendors-core';

/*
 * vendor_j's generate responses, both directions: a server builds `{candidates: [{content: {parts:
 * [{inlineData}]}, finishReason?}], usageMetadata?, modelVersion, responseId}` (the whole answer, or one SSE
 * event of a stream); the adapter reads the audio parts, the finish reason and an error out of it.
 */

/** Token counts of a finished answer, for `usageMetadata`. */
export interface VendorJUsage {
  readonly promptTokens: number;
  readonly audioTokens: number;
}

/** Audio tokens per second of speech. */
const AUDIO_TOKENS_PER_SECOND = 25;

/** What the vendor counts for a text and the length of the audio made from it. */
export function vendorJUsage(text: string, audioMs: number): VendorJUsage {
  return {
    promptTokens: Math.max(1, Math.ceil(text.length / 4)),
    audioTokens: Math.max(1, Math.round((audioMs / 1000) * AUDIO_TOKENS_PER_SECOND)),
  };
}

function usageMetadata({ promptTokens, audioTokens }: VendorJUsage): Record<string, unknown> {
  return {
    promptTokenCount: promptTokens,
    candidatesTokenCount: audioTokens,
    totalTokenCount: promptTokens + audioTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
    candidatesTokensDetails: [{ modality: 'AUDIO', tokenCount: audioTokens }],
  };
}

/** One response: an audio part; `final` (the last one) carries `finishReason` STOP and the usage. */
export function vendorJResponse(
  model: string,
  responseId: string,
  inline: { mimeType: string; data: Buffer },
  final?: VendorJUsage,
): Record<string, unknown> {
  return {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [{ inlineData: { mimeType: inline.mimeType, data: inline.data.toString('base64') } }],
        },
        ...(final ? { finishReason: 'STOP' } : {}),
        index: 0,
      },
    ],
    ...(final ? { usageMetadata: usageMetadata(final) } : {}),
    modelVersion: model,
    responseId,
  };
}

/** One `alt=sse` event (the vendor ends events with CRLF pairs). */
export function vendorJSseEvent(json: unknown): string {
  return `data: ${JSON.stringify(json)}\r\n\r\n`;
}

export type VendorJResponseReading =
  | { readonly kind: 'error'; readonly code: number | undefined; readonly message: string }
  | { readonly kind: 'malformed'; readonly what: string }
  | {
      readonly kind: 'audio';
      readonly audio: readonly Buffer[];
      /** The first candidate's `finishReason`, undefined while the take goes on. */
      readonly finishReason: unknown;
    };

/** A response as a client reads it: its audio parts (`inlineData` with an `audio/` type), or its error. */
export function readVendorJResponse(response: Record<string, unknown>): VendorJResponseReading {
  const error = response['error'];
  if (error !== undefined) {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    return {
      kind: 'error',
      code: typeof code === 'number' ? code : undefined,
      message: stringAt(error, 'message') ?? '',
    };
  }
  const candidates = response['candidates'];
  const first: unknown = Array.isArray(candidates) ? candidates[0] : undefined;
  const candidate =
    typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : undefined;
  const content = candidate?.['content'];
  const parts =
    typeof content === 'object' && content !== null ? (content as { parts?: unknown }).parts : undefined;
  const audio: Buffer[] = [];
  for (const part of Array.isArray(parts) ? parts : []) {
    const mimeType = stringAt(part, 'inlineData', 'mimeType');
    if (mimeType === undefined || !mimeType.startsWith('audio/')) continue;
    const data = stringAt(part, 'inlineData', 'data');
    if (data === undefined) return { kind: 'malformed', what: 'an audio part without data' };
    const bytes = Buffer.from(data, 'base64');
    if (bytes.length > 0) audio.push(bytes);
  }
  return { kind: 'audio', audio, finishReason: candidate?.['finishReason'] ?? undefined };
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a response part is audio (`inlineData` with an `audio/` type), as the vendor's clients tell it. */
function isAudioPart(part: unknown): boolean {
  return stringAt(part, 'inlineData', 'mimeType')?.startsWith('audio/') === true;
}

/**
 * What a response is within a generate answer, for the mirror's cache: `error` (the vendor's error, sent as an
 * event after the 200, or a take that stopped for another reason than STOP), `final` (`finishReason` STOP) or
 * `part` (a part of the audio, the take going on). `audio` says whether it carries any.
 */
export function vendorJResponseKind(response: unknown): { kind: 'part' | 'final' | 'error'; audio: boolean } {
  if (!isObject(response)) return { kind: 'error', audio: false };
  const reading = readVendorJResponse(response);
  if (reading.kind !== 'audio') return { kind: 'error', audio: false };
  const audio = reading.audio.length > 0;
  if (reading.finishReason === undefined) return { kind: 'part', audio };
  return { kind: reading.finishReason === 'STOP' ? 'final' : 'error', audio };
}

/** Every number of a usage record as zero, its shape kept. */
function zeroed(value: unknown): unknown {
  if (typeof value === 'number') return 0;
  if (Array.isArray(value)) return value.map(zeroed);
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, zeroed(field)]));
}

/** A candidate with its content's audio parts only. */
function audioOnly(candidate: unknown): unknown {
  if (!isObject(candidate)) return candidate;
  const content = candidate['content'];
  const parts = isObject(content) ? content['parts'] : undefined;
  if (!isObject(content) || !Array.isArray(parts)) return candidate;
  return { ...candidate, content: { ...content, parts: parts.filter(isAudioPart) } };
}

/**
 * A response as a reply from the cache carries it (spec: vendor_j drop-in): its audio parts only, its usage
 * counting zero tokens, no `responseId`; every other field as the vendor sent it, in its place.
 */
export function vendorJReplayed(response: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { responseId: _live, ...kept } = response;
  const candidates = kept['candidates'];
  const usage = kept['usageMetadata'];
  return {
    ...kept,
    ...(Array.isArray(candidates) ? { candidates: candidates.map(audioOnly) } : {}),
    ...(usage === undefined ? {} : { usageMetadata: zeroed(usage) }),
  };
}
