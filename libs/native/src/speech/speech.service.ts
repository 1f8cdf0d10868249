import type { ServerResponse } from 'node:http';
import { RouterError, type SynthSettings } from '@router/contracts';
import type { Logger } from '@router/observability';
import { type PieceAudio, type PieceRequest, type PieceResolver, playReply } from '@router/pipeline';
import { splitText } from '@router/text';
import { FORMAT_CONTENT_TYPES, type VendorDefinition } from '@router/vendors-core';
import type { ReplyPlanner } from '../reply/reply-plan';
import { streamingWavHeader } from '@router/vendors-core';
import { parseSpeechBody } from './speech-body';
import { WavSampleData } from './wav';

export interface SpeechServiceDeps {
  resolver: PieceResolver;
  planner: ReplyPlanner;
  lookAhead: number;
  logger: Logger;
}

/**
 * POST /v1/audio/speech once the body is valid: the input's pieces through the pipeline, streamed as they
 * resolve. An error before any audio is the envelope; after audio has started it can only abort the body.
 */
export class SpeechService {
  constructor(private readonly deps: SpeechServiceDeps) {}

  /** The route's whole work, from the parsed JSON body on: both ways in (the plain route, Nest's) call it. */
  async serve(orgId: string, body: unknown, res: ServerResponse): Promise<void> {
    await this.speak(orgId, parseSpeechBody(body), res);
  }

  private async speak(
    orgId: string,
    request: { def: VendorDefinition; settings: SynthSettings; input: string },
    res: ServerResponse,
  ): Promise<void> {
    const { def, settings } = request;
    const plan = await this.deps.planner.plan(orgId, def, settings);
    const pieces = splitText(request.input, def.splitter, def.maxInputChars)
      .map((text) => plan.piece(text))
      .filter((piece): piece is PieceRequest => piece !== null);

    // Once the client has gone, no further piece is asked for; takes already running finish at the workers.
    const left = new AbortController();
    res.once('close', () => left.abort());
    const clientGone = new Promise<'gone'>((resolve) =>
      left.signal.addEventListener('abort', () => resolve('gone'), { once: true }),
    );
    const reply = playReply(this.deps.resolver, pieces, {
      lookAhead: this.deps.lookAhead,
      left: left.signal,
    });
    let current: PieceAudio | undefined;
    try {
      let next = await reply.next();
      if (!next.done && next.value.failure) throw next.value.failure; // still the envelope: no audio yet
      if (!res.headersSent)
        res.writeHead(200, {
          'content-type': FORMAT_CONTENT_TYPES[settings.format] ?? 'application/octet-stream',
        });
      if (settings.format === 'wav') await write(res, streamingWavHeader(settings.sampleRate));
      while (!next.done && !left.signal.aborted) {
        if (next.value.failure) throw next.value.failure;
        current = next.value.audio;
        const samples = settings.format === 'wav' ? new WavSampleData() : undefined;
        const chunks = current.chunks[Symbol.asyncIterator]();
        for (;;) {
          const chunk = await Promise.race([chunks.next(), clientGone]);
          if (chunk === 'gone' || chunk.done) break;
          const out = samples ? samples.push(chunk.value) : chunk.value;
          if (out.length > 0 && (await Promise.race([write(res, out), clientGone])) === 'gone') break;
        }
        if (left.signal.aborted) break;
        current = undefined;
        next = await reply.next();
      }
      if (!res.destroyed) res.end();
    } catch (error) {
      if (!res.headersSent) throw error instanceof RouterError ? error : RouterError.internal(error);
      this.deps.logger.warn(
        { orgId, vendor: def.id, code: error instanceof RouterError ? error.code : 'internal' },
        'speech aborted after audio started',
      );
      res.destroy(error instanceof Error ? error : undefined);
    } finally {
      current?.cancel();
      await reply.return(undefined);
    }
  }
}

function write(res: ServerResponse, chunk: Buffer): Promise<'written'> {
  return new Promise((resolve) => {
    if (res.write(chunk)) resolve('written');
    else res.once('drain', () => resolve('written'));
  });
}
