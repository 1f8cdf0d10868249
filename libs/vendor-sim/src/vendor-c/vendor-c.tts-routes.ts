import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playChunked } from '../kit/http/play-stream';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import {
  dialogueVoiceSegments,
  parseDialogueRequest,
  parseOutputQuery,
  parseTtsRequest,
  synthesisHeaders,
  timestampedBody,
  timestampedErrorLine,
  timestampedLine,
  voiceProblem,
  type OutputQuery,
  type VoiceSegment,
} from '@router/vendor-c';
import {
  charsInPiece,
  sendCheckFailure,
  sendVendorCProblem,
  takeSpec,
  vendorCFaultProblem,
} from './vendor-c.replies';
import { vendorCAccount } from './vendor-c.voice-routes';
import { speedOf, type VoiceStore } from './vendor-c.voices';

/** The four shapes of a synthesis answer. */
type Variant = 'audio' | 'stream' | 'with-timestamps' | 'stream-with-timestamps';

const VARIANTS: readonly { suffix: string; variant: Variant }[] = [
  { suffix: '', variant: 'audio' },
  { suffix: '/stream', variant: 'stream' },
  { suffix: '/with-timestamps', variant: 'with-timestamps' },
  { suffix: '/stream/with-timestamps', variant: 'stream-with-timestamps' },
];

interface Synthesis {
  readonly key: string;
  readonly text: string;
  readonly output: OutputQuery;
  readonly speed: number;
  /** Call-log endpoint, e.g. `tts-stream`. */
  readonly endpoint: string;
  readonly variant: Variant;
  /** Dialogue only: which characters each input's voice speaks. */
  readonly voiceSegments?: (take: {
    characters: readonly { startMs: number; endMs: number }[];
  }) => VoiceSegment[];
}

async function synthesize(kit: SimKit, exchange: HttpExchange, job: Synthesis): Promise<void> {
  const begun = beginTake(kit, {
    vendor: 'vendor_c',
    endpoint: job.endpoint,
    key: job.key,
    text: job.text,
    // Each REST answer is a stream of its own, so an MP3 one starts with the vendor's ID3 tag.
    spec: takeSpec(job.output.audio, true),
    speed: job.speed,
  });
  const { take } = begun;
  const headers = synthesisHeaders(job.text.length, job.output.enableLogging);
  const pacing = kit.state.pacing('vendor_c');
  const sendFault = (f: Parameters<typeof vendorCFaultProblem>[0]): void =>
    sendVendorCProblem(exchange, vendorCFaultProblem(f));
  if (job.variant === 'audio' || job.variant === 'with-timestamps') {
    const body =
      job.variant === 'audio'
        ? take.bytes
        : Buffer.from(
            JSON.stringify(timestampedBody(take.bytes, take.characters, job.voiceSegments?.(take))),
          );
    const contentType = job.variant === 'audio' ? take.contentType : 'application/json';
    await playOneShot(exchange, begun, pacing, { contentType, body, headers, sendError: sendFault });
    return;
  }
  if (job.variant !== 'stream-with-timestamps') {
    await playChunked(exchange, begun, pacing, { headers, sendError: sendFault });
    return;
  }
  // JSON lines: each piece's audio with the characters spoken in it; a failure once they began, the error line.
  await playChunked(exchange, begun, pacing, {
    contentType: 'application/json',
    headers,
    frame: (piece) => timestampedLine(piece.bytes, charsInPiece(take, piece)),
    errorFrame: (fault) => timestampedErrorLine(vendorCFaultProblem(fault)),
    sendError: sendFault,
  });
}

function endpointName(base: 'tts' | 'dialogue', variant: Variant): string {
  return variant === 'audio' ? base : `${base}-${variant}`;
}

export function vendorCTtsRoutes(kit: SimKit, store: VoiceStore): HttpRoute[] {
  const tts = VARIANTS.map(({ suffix, variant }): HttpRoute => ({
    method: 'POST',
    path: `/v1/text-to-speech/:voice_id${suffix}`,
    async handle(exchange) {
      const account = vendorCAccount(exchange);
      if (!account) return;
      const output = parseOutputQuery(exchange.query);
      if (!output.ok) return sendCheckFailure(exchange, output);
      const voiceId = exchange.params['voice_id'] ?? '';
      const request = parseTtsRequest(exchange.json(), voiceId, (id) =>
        voiceProblem(store.find(account.keyId, id), id),
      );
      if (!request.ok) return sendCheckFailure(exchange, request);
      await synthesize(kit, exchange, {
        key: account.key,
        text: request.value.text,
        output: output.value,
        speed: speedOf(request.value.body['voice_settings'], store.settings(account.keyId, voiceId).speed),
        endpoint: endpointName('tts', variant),
        variant,
      });
    },
  }));
  const dialogue = VARIANTS.map(({ suffix, variant }): HttpRoute => ({
    method: 'POST',
    path: `/v1/text-to-dialogue${suffix}`,
    async handle(exchange) {
      const account = vendorCAccount(exchange);
      if (!account) return;
      const output = parseOutputQuery(exchange.query);
      if (!output.ok) return sendCheckFailure(exchange, output);
      const request = parseDialogueRequest(exchange.json(), (id) =>
        voiceProblem(store.find(account.keyId, id), id),
      );
      if (!request.ok) return sendCheckFailure(exchange, request);
      const { inputs } = request.value;
      const text = inputs.map((i) => i.text).join('');
      await synthesize(kit, exchange, {
        key: account.key,
        text,
        output: output.value,
        speed: 1,
        endpoint: endpointName('dialogue', variant),
        variant,
        voiceSegments: (take) => dialogueVoiceSegments(inputs, take.characters),
      });
    },
  }));
  return [...tts, ...dialogue];
}
