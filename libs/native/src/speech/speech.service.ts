import type { ServerResponse } from 'node:http';
import { RouterError, type SynthSettings } from '@router/contracts';
import type { Logger } from '@router/observability';
import {
  type PieceRequest,
  type PieceResolver,
  playPieces,
  type ReplyPlanner,
  keyHashOf,
  type RequestLogWriter,
  RequestTally,
  WavSampleData,
} from '@router/pipeline';
import { cutBody } from '@router/service-kit';
import { splitText } from '@router/text';
import { FORMAT_CONTENT_TYPES, streamingWavHeader, type VendorDefinition } from '@router/vendors-core';
import { parseSpeechBody } from './speech-body';

/** Why a speech request's pieces stop when its client goes: made once (nothing reads it; see reply.ts). */
const CLIENT_LEFT = new Error('the client left');

export interface SpeechServiceDeps {
  resolver: PieceResolver;
  planner: ReplyPlanner;
  lookAhead: number;
  logger: Logger;
  /** Where each request's row goes once it has finished (or failed). */
  requestLog?: RequestLogWriter;
}

/**
 * POST /v1/audio/speech once the body is valid: the input's pieces through the pipeline, streamed as they
 * resolve. An error before any audio is the envelope; after audio has started it can only abort the body.
 */
export class SpeechService {
  constructor(private readonly deps: SpeechServiceDeps) {}

  /** The route's whole work, from the parsed JSON body on: both ways in (the plain route, Nest's) call it. */
  async serve(orgId: string, body: unknown, res: ServerResponse): Promise<void> {
    const tally = new RequestTally();
    let refusal: number | null = null;
    try {
      await this.speak(orgId, parseSpeechBody(body), res, tally);
    } catch (error) {
      const failure = RouterError.unexpected(error);
      tally.failed(failure.code);
      refusal = failure.status;
      throw error;
    } finally {
      // One row per request, whatever its outcome; the row never holds the input.
      const status = res.headersSent ? res.statusCode : refusal;
      this.deps.requestLog?.record(tally.row(orgId, keyHashOf(res.req.headers), 'speech', status));
    }
  }

  private async speak(
    orgId: string,
    request: { def: VendorDefinition; settings: SynthSettings; input: string },
    res: ServerResponse,
    tally: RequestTally,
  ): Promise<void> {
    const { def, settings } = request;
    tally.settings(settings);
    const plan = await this.deps.planner.plan(orgId, def, settings);
    const pieces = splitText(request.input, def.splitter, def.maxInputChars)
      .map((text) => plan.piece(text))
      .filter((piece): piece is PieceRequest => piece !== null);

    // Once the client has gone, no further piece is asked for; takes already running finish at the workers.
    const left = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) left.abort(CLIENT_LEFT);
    });
    let failure: RouterError | undefined;
    let samples: WavSampleData | undefined;
    const end = await playPieces(
      this.deps.resolver,
      pieces,
      { lookAhead: this.deps.lookAhead, left: left.signal },
      {
        wantsWords: false,
        pieceStart: async (piece, audio) => {
          tally.sentence(piece.text.length, audio.cached);
          if (!res.headersSent) {
            res.writeHead(200, {
              'content-type': FORMAT_CONTENT_TYPES[settings.format] ?? 'application/octet-stream',
            });
            if (settings.format === 'wav') await write(res, streamingWavHeader(settings.sampleRate));
          }
          samples = settings.format === 'wav' ? new WavSampleData() : undefined;
        },
        write: (chunk) => {
          tally.audio();
          const out = samples ? samples.push(chunk) : chunk;
          return out.length > 0 ? write(res, out) : undefined;
        },
        pieceEnd: () => undefined,
        pieceFailed: (_piece, error) => {
          tally.failed(error.code);
          failure = error;
          return 'stop';
        },
      },
    );
    if (end !== 'stopped' || !failure) {
      if (!res.destroyed) res.end();
      return;
    }
    if (!res.headersSent) throw failure; // still the envelope: no audio yet
    this.deps.logger.warn(
      { orgId, vendor: def.id, code: failure.code },
      'speech aborted after audio started',
    );
    cutBody(res, failure);
  }
}

function write(res: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise((resolve) => {
    if (res.write(chunk)) resolve();
    else res.once('drain', () => resolve());
  });
}
