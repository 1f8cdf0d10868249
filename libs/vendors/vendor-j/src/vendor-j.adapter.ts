import { RouterError, type SynthSettings } from '@router/contracts';
import {
  HttpVendorAdapter,
  parseJsonObject,
  readSseTake,
  streamingWavHeader,
  readRefusal,
  stringAt,
  vendorFailure,
  vendorMalformed,
  type AdapterFactory,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type UpstreamBody,
  type VendorId,
} from '@router/vendors-core';

const VENDOR: VendorId = 'vendor_j';

/** The vendor's only audio: 16-bit signed little-endian PCM, mono, at this rate. */
export const VENDOR_J_SAMPLE_RATE = 24000;

/** The streaming call: SSE `data:` events, each a response with a part of the audio, the last with `finishReason`. */
export function vendorJStreamPath(model: string): string {
  return `/v1beta/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`;
}

function prebuilt(voiceName: string): Record<string, unknown> {
  return { prebuiltVoiceConfig: { voiceName } };
}

/** A natural-language direction goes before the script, as the vendor's own examples write it. */
function directed(instructions: unknown, script: string, separator: string): string {
  if (typeof instructions !== 'string' || instructions.trim() === '') return script;
  return `${instructions.trim().replace(/:$/, '')}${separator}${script}`;
}

/**
 * The body of one piece. The vendor has no language, speed or format settings: `instructions` is spoken
 * direction placed before the text; with `speakers` (two names, each with a voice) the text is the named
 * `speaker`'s line (`Name: text`) and the voices go in `multiSpeakerVoiceConfig`.
 */
export function vendorJBody(settings: SynthSettings, text: string): Record<string, unknown> {
  if (settings.format !== 'pcm' && settings.format !== 'wav') {
    throw RouterError.badRequest(`${VENDOR} cannot produce ${settings.format} audio`);
  }
  if (settings.sampleRate !== VENDOR_J_SAMPLE_RATE) {
    throw RouterError.badRequest(`${VENDOR} produces ${VENDOR_J_SAMPLE_RATE} Hz audio only`);
  }
  const { instructions, speakers, speaker } = settings.options;
  const multi = typeof speakers === 'object' && speakers !== null && typeof speaker === 'string';
  const script = multi
    ? directed(instructions, `${speaker}: ${text}`, '\n')
    : directed(instructions, text, ': ');
  const speechConfig = multi
    ? {
        multiSpeakerVoiceConfig: {
          speakerVoiceConfigs: Object.entries(speakers as Record<string, unknown>).map(([name, voice]) => ({
            speaker: name,
            voiceConfig: prebuilt(String(voice)),
          })),
        },
      }
    : { voiceConfig: prebuilt(settings.voice) };
  return {
    contents: [{ role: 'user', parts: [{ text: script }] }],
    generationConfig: { responseModalities: ['AUDIO'], speechConfig },
  };
}

/** The vendor's refusal text: `error.message`, else the body. */
export function vendorJErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error', 'message'));
}

interface StreamResponse {
  candidates?: unknown;
  error?: unknown;
}

interface Candidate {
  content?: { parts?: unknown };
  finishReason?: unknown;
}

/**
 * vendor_j over its SSE streaming call with keep-alive: each event's audio parts are yielded as they arrive
 * (behind one open-sized WAV header when `wav` is asked for), and the take is complete once an event says
 * `finishReason` STOP. An error event carries the vendor's code and message. The org's key goes in
 * `x-vendor_j-api-key`.
 */
export class VendorJAdapter extends HttpVendorAdapter {
  constructor(options: AdapterOptions) {
    super(VENDOR, options, vendorJErrorMessage);
  }

  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const body = vendorJBody(call.settings, call.text);
    const path = vendorJStreamPath(call.settings.model);
    const headers = { accept: 'text/event-stream', 'x-vendor_j-api-key': call.apiKey };
    const wav = call.settings.format === 'wav';
    yield* this.exchange({ path, body, headers, signal: call.signal }, (answer) => streamAudio(answer, wav));
  }
}

function streamAudio(body: UpstreamBody, wav: boolean): AsyncGenerator<SynthesisEvent> {
  let headerSent = !wav;
  return readSseTake(
    VENDOR,
    body,
    ({ data }) => {
      const response = parseJsonObject<StreamResponse>(VENDOR, data, 'an event');
      if (response.error !== undefined) throw streamError(response.error);
      const candidate = firstCandidate(response.candidates);
      const events: SynthesisEvent[] = [];
      for (const audio of inlineAudio(candidate)) {
        if (!headerSent) {
          headerSent = true;
          events.push({ kind: 'audio', data: streamingWavHeader(VENDOR_J_SAMPLE_RATE) });
        }
        events.push({ kind: 'audio', data: audio });
      }
      const reason = candidate?.finishReason;
      if (reason === undefined || reason === null) return { events };
      if (reason !== 'STOP') {
        throw vendorFailure(
          VENDOR,
          400,
          `${VENDOR} stopped the take without finishing it (${JSON.stringify(reason)})`,
        );
      }
      return { events, complete: true };
    },
    'finishReason STOP',
  );
}

function firstCandidate(candidates: unknown): Candidate | undefined {
  if (!Array.isArray(candidates)) return undefined;
  const first: unknown = candidates[0];
  return typeof first === 'object' && first !== null ? first : undefined;
}

/** The audio parts of a candidate (`inlineData` with an `audio/` type); a candidate may have no content. */
function inlineAudio(candidate: Candidate | undefined): Buffer[] {
  const parts = candidate?.content?.parts;
  if (!Array.isArray(parts)) return [];
  const audio: Buffer[] = [];
  for (const part of parts) {
    const mimeType = stringAt(part, 'inlineData', 'mimeType');
    if (mimeType === undefined || !mimeType.startsWith('audio/')) continue;
    const data = stringAt(part, 'inlineData', 'data');
    if (data === undefined) throw vendorMalformed(VENDOR, 'an audio part without data');
    const bytes = Buffer.from(data, 'base64');
    if (bytes.length > 0) audio.push(bytes);
  }
  return audio;
}

function streamError(error: unknown): RouterError {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return vendorFailure(VENDOR, typeof code === 'number' ? code : 502, stringAt(error, 'message') ?? '');
}

export const createVendorJAdapter: AdapterFactory = (options) => new VendorJAdapter(options);
