import { RouterError, type WordTiming } from '@router/contracts';
import type { Logger } from '@router/observability';
import {
  asRouterError,
  type PieceResolver,
  type ReplyPlan,
  type ReplyPlanner,
  ReplyStream,
  type RequestLogWriter,
  RequestTally,
} from '@router/pipeline';
import type { SocketPeer, SocketSession } from '@router/service-kit';
import { type ClientMessage, parseClientMessage, STREAM_TEXT_MAX_CHARS } from './stream-messages';

export interface StreamSessionDeps {
  resolver: PieceResolver;
  planner: ReplyPlanner;
  lookAhead: number;
  logger: Logger;
  /** See ReplyStreamDeps.replanAfterMs. */
  replanAfterMs: number;
  now: () => number;
  /** Where the session's row goes once its socket closes. */
  requestLog?: RequestLogWriter;
}

/** Close codes of docs/stream-protocol.md. */
export const STREAM_CLOSE = {
  normal: 1000,
  goingAway: 1001,
  unauthorized: 1008,
  internal: 1011,
  idle: 4008,
} as const;

/**
 * One /v1/stream connection (docs/stream-protocol.md): its messages parsed and handed, one at a time in the
 * order they came, to a ReplyStream (the pipeline's streamed reply), whose events become this protocol's
 * messages.
 */
export class StreamSession implements SocketSession {
  readonly sessionId: string;
  /** For logs (SocketSession). */
  get id(): string {
    return this.sessionId;
  }
  private readonly reply: ReplyStream;
  private inbox: Promise<void> = Promise.resolve();
  private closing = false;
  private gone = false;
  private readonly tally = new RequestTally();

  /** `keyHash`: the API key's hash the gateway forwarded, for the request log. */
  constructor(
    private readonly orgId: string,
    private readonly peer: SocketPeer,
    private readonly deps: StreamSessionDeps,
    sessionId: string,
    private readonly keyHash: string | null = null,
  ) {
    this.sessionId = sessionId;
    this.reply = new ReplyStream(
      orgId,
      { ...deps, maxHeldChars: STREAM_TEXT_MAX_CHARS, tally: this.tally },
      {
        sentenceStart: ({ sentence, text, cached }) =>
          this.sendJson({ type: 'sentence_start', sentence, text, cached }),
        audio: (chunk) => this.peer.send(chunk),
        sentenceEnd: ({ sentence, text, bytes, durationMs, words }) => {
          if (words) this.sendJson({ type: 'words', sentence, words: publicWords(text, words) });
          this.sendJson({ type: 'sentence_end', sentence, bytes, duration_ms: roundMs(durationMs) });
        },
        sentenceFailed: (sentence, error) => this.sendError(error, sentence),
        failed: (error) => this.fail(error),
      },
    );
  }

  /** A frame from the client. */
  receive(frame: Buffer, isBinary: boolean): void {
    this.inbox = this.inbox
      .then(() => this.handle(frame, isBinary))
      .catch((error: unknown) => this.fail(error));
  }

  /** The client closed the socket or lost it: running takes finish and are cached; nothing new starts. */
  disconnected(): void {
    if (this.gone) return;
    this.gone = true;
    this.reply.disconnected();
    this.deps.requestLog?.record(this.tally.row(this.orgId, this.keyHash, 'stream', null));
  }

  /**
   * The router is going away: the messages already read are handled and the sentences of the turn under way
   * play out (text sent since the last flush waits for its flush), then the socket closes with 1001.
   */
  async drain(): Promise<void> {
    for (;;) {
      const inbox = this.inbox;
      await inbox;
      await this.reply.whenQuiet();
      if (inbox === this.inbox) break;
    }
    if (this.gone || this.closing) return;
    this.closing = true;
    this.peer.close(STREAM_CLOSE.goingAway, 'router going away');
  }

  /** The dashboard session the socket was opened with ended: an `unauthorized` error, then close 1008. */
  revoked(error: RouterError): void {
    this.sendError(error);
    this.peer.close(STREAM_CLOSE.unauthorized, 'unauthorized');
    this.disconnected();
  }

  /** The router is shutting down now. */
  shutdown(): void {
    this.peer.close(STREAM_CLOSE.goingAway, 'router shutting down');
    this.disconnected();
  }

  private async handle(frame: Buffer, isBinary: boolean): Promise<void> {
    if (this.gone || this.closing) return;
    let message: ClientMessage;
    try {
      if (isBinary) throw RouterError.badRequest('binary frames are not accepted: send JSON text messages');
      message = parseClientMessage(frame.toString('utf8'));
    } catch (error) {
      this.sendError(asRouterError(error));
      return;
    }
    try {
      await this.dispatch(message);
    } catch (error) {
      // A refused message (out of order, settings the vendor cannot take) leaves the connection open.
      if (!(error instanceof RouterError) || error.code === 'internal') throw error;
      this.sendError(error);
    }
  }

  private async dispatch(message: ClientMessage): Promise<void> {
    if (message.type === 'text' || message.type === 'flush' || message.type === 'close') {
      await this.reply.refresh();
    }
    switch (message.type) {
      case 'settings': {
        const plan = await this.reply.configure(message.def, message.settings);
        this.sendJson({ type: 'ready', session_id: this.sessionId, settings: publicSettings(plan) });
        return;
      }
      case 'text':
        this.requireSettings('text');
        return this.reply.push(message.text);
      case 'flush':
        this.requireSettings('flush');
        return this.reply.flush((last) =>
          this.sendJson({ type: 'flushed', id: message.id, last_sentence: last }),
        );
      case 'interrupt': {
        const { spoken, remaining } = await this.reply.interrupt(message.playedMs);
        this.sendJson({
          type: 'interrupted',
          last_spoken: spoken.at(-1)?.sentence ?? null,
          text_spoken: spoken.map((s) => s.text).join(' '),
          text_remaining: remaining.join(' '),
        });
        return;
      }
      case 'close':
        this.closing = true;
        await this.reply.finish();
        this.peer.close(STREAM_CLOSE.normal, 'done');
        return;
    }
  }

  private requireSettings(type: string): void {
    if (!this.reply.configured) {
      throw RouterError.badRequest(`a ${type} message must come after a settings message`);
    }
  }

  private sendError(error: RouterError, sentence?: number): void {
    const { error: body } = error.toEnvelope();
    this.sendJson({ type: 'error', error: body, ...(sentence === undefined ? {} : { sentence }) });
  }

  private sendJson(message: Record<string, unknown>): void {
    if (!this.gone) void this.peer.send(JSON.stringify(message));
  }

  /** A failure of the session itself, not of a sentence: the connection cannot go on. */
  private fail(error: unknown): void {
    this.tally.failed(RouterError.unexpected(error).code);
    this.deps.logger.error({ err: error, sessionId: this.sessionId }, 'stream session failed');
    this.sendError(RouterError.unexpected(error));
    this.peer.close(STREAM_CLOSE.internal, 'internal error');
    this.disconnected();
  }
}

function publicWords(
  text: string,
  words: readonly WordTiming[],
): Array<{ word: string; start: number; end: number; start_ms: number; end_ms: number }> {
  return words.map((w) => ({
    word: text.slice(w.start, w.end),
    start: w.start,
    end: w.end,
    start_ms: w.startMs,
    end_ms: w.endMs,
  }));
}

function roundMs(ms: number | null): number | null {
  return ms === null ? null : Math.round(ms * 1000) / 1000;
}

/** The resolved settings as the client names them (docs/stream-protocol.md, `ready`). */
function publicSettings(plan: ReplyPlan): Record<string, unknown> {
  const s = plan.settings;
  return {
    model: `${s.vendor}/${s.model}`,
    voice: s.voice,
    language: s.language,
    response_format: s.format,
    speed: s.speed,
    sample_rate: s.sampleRate,
    options: s.options,
  };
}
