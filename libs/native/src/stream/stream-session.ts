import { RouterError, type WordTiming } from '@router/contracts';
import type { Logger } from '@router/observability';
import {
  AsyncQueue,
  asRouterError,
  type PieceAudio,
  type PieceRequest,
  type PieceResolver,
  playReply,
} from '@router/pipeline';
import { createIncrementalSplitter, type IncrementalSplitter } from '@router/text';
import type { ReplyPlan, ReplyPlanner } from '../reply/reply-plan';
import { AudioClock } from './audio-clock';
import { type ClientMessage, parseClientMessage, STREAM_TEXT_MAX_CHARS } from './stream-messages';

/** What the session needs of its socket; the WebSocket server provides it (tests provide a fake). */
export interface StreamPeer {
  sendJson(message: Record<string, unknown>): void;
  /** Resolves once the socket can take more (flow control). */
  sendAudio(chunk: Buffer): Promise<void>;
  close(code: number, reason: string): void;
}

export interface StreamSessionDeps {
  resolver: PieceResolver;
  planner: ReplyPlanner;
  lookAhead: number;
  logger: Logger;
  /**
   * How old a connection's plan may grow before the next text re-plans it, so that a long-lived connection
   * follows retention changes and settings stored at the vendor as a new request would (their own caches
   * decide how fresh they are; this only bounds how often a connection asks).
   */
  replanAfterMs: number;
  now: () => number;
}

/** Close codes of docs/stream-protocol.md. */
export const STREAM_CLOSE = { normal: 1000, goingAway: 1001, internal: 1011, idle: 4008 } as const;

/** A sentence whose audio has started; its clock counts the audio sent so far. */
interface StartedSentence {
  sentence: number;
  text: string;
  clock: AudioClock;
}

interface SentencePiece extends PieceRequest {
  sentence: number;
}

/** One reply: from the first piece after the connection opened (or after an interrupt) to the next interrupt. */
interface ReplyRun {
  queue: AsyncQueue<SentencePiece>;
  interrupted: AbortController;
  left: AbortController;
  /** Sentences whose audio started, in order, for telling spoken from remaining text at an interrupt. */
  started: StartedSentence[];
  /** Pieces handed to the run whose audio has not started. */
  waiting: SentencePiece[];
  done: Promise<void>;
}

/**
 * One /v1/stream connection (docs/stream-protocol.md): settings, text deltas split into pieces as they arrive,
 * each piece played through the pipeline in order, with flush, interrupt, settings changes and close.
 * Messages are handled one at a time, in the order they came.
 */
export class StreamSession {
  readonly sessionId: string;
  private plan: ReplyPlan | null = null;
  private planned: { message: Extract<ClientMessage, { type: 'settings' }>; at: number } | null = null;
  private splitter: IncrementalSplitter | null = null;
  /** Characters pushed to the splitter since it last released a piece. */
  private heldChars = 0;
  private inbox: Promise<void> = Promise.resolve();
  private run: ReplyRun | null = null;
  private nextSentence = 0;
  /** The last sentence handed to a run, and the last one whose audio ended or failed. */
  private lastQueued: number | null = null;
  private lastDone: number | null = null;
  private readonly flushes: Array<{ id: string | null; last: number }> = [];
  private closing = false;
  private gone = false;

  constructor(
    private readonly orgId: string,
    private readonly peer: StreamPeer,
    private readonly deps: StreamSessionDeps,
    sessionId: string,
  ) {
    this.sessionId = sessionId;
  }

  /** A frame from the client. */
  receive(frame: Buffer, isBinary: boolean): void {
    this.inbox = this.inbox
      .then(() => this.handle(frame, isBinary))
      .catch((error: unknown) => this.fail(error));
  }

  /** The client closed the socket or lost it: running takes finish and are cached; nothing new starts. */
  disconnected(): void {
    this.gone = true;
    this.run?.left.abort();
    this.run?.queue.end();
  }

  /** The router is shutting down. */
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
    if (message.type === 'text' || message.type === 'flush' || message.type === 'close') await this.replan();
    switch (message.type) {
      case 'settings':
        return this.applySettings(message);
      case 'text':
        return this.pushText(message.text);
      case 'flush':
        return this.flush(message.id);
      case 'interrupt':
        return this.interrupt(message.playedMs);
      case 'close':
        return this.close();
    }
  }

  private async applySettings(message: Extract<ClientMessage, { type: 'settings' }>): Promise<void> {
    const at = this.deps.now();
    const plan = await this.deps.planner.plan(this.orgId, message.def, message.settings);
    // Text held under the old settings is spoken with them (as a flush would, without an answer).
    this.release(this.splitter?.flush() ?? []);
    this.plan = plan;
    this.planned = { message, at };
    this.splitter = createIncrementalSplitter(plan.def.splitter, plan.def.maxInputChars);
    this.sendJson({ type: 'ready', session_id: this.sessionId, settings: publicSettings(plan) });
  }

  private async replan(): Promise<void> {
    const planned = this.planned;
    if (!planned || this.deps.now() - planned.at < this.deps.replanAfterMs) return;
    planned.at = this.deps.now();
    this.plan = await this.deps.planner.plan(this.orgId, planned.message.def, planned.message.settings);
  }

  private pushText(text: string): void {
    const splitter = this.requireSettings('text');
    this.heldChars += text.length;
    const pieces = splitter.push(text);
    if (pieces.length > 0) this.heldChars = 0;
    this.release(pieces);
    // The splitter releases text without a sentence end in pieces within the vendor's limit; what it can still
    // hold is text after a full stop that nothing has settled yet (only spaces and digits after `etc.`), which
    // is spoken past this bound rather than held without limit.
    if (this.heldChars > STREAM_TEXT_MAX_CHARS) {
      this.heldChars = 0;
      this.release(splitter.flush());
    }
  }

  private flush(id: string | null): void {
    const splitter = this.requireSettings('flush');
    this.heldChars = 0;
    this.release(splitter.flush());
    const last = this.lastQueued;
    if (last === null || (this.lastDone !== null && this.lastDone >= last)) {
      this.sendJson({ type: 'flushed', id, last_sentence: last });
    } else {
      this.flushes.push({ id, last });
    }
  }

  private async interrupt(playedMs: number | null): Promise<void> {
    const run = this.run;
    this.run = null;
    const held = this.splitter?.flush() ?? [];
    this.heldChars = 0;
    let spoken: Array<{ sentence: number; text: string }> = [];
    let remaining: string[] = [];
    if (run) {
      run.interrupted.abort();
      run.queue.end();
      await run.done;
      spoken = spokenSentences(run.started, playedMs);
      const spokenCount = spoken.length;
      remaining = [...run.started.slice(spokenCount).map((s) => s.text), ...run.waiting.map((p) => p.text)];
    }
    // Flushes waiting for dropped sentences are answered by `interrupted` instead.
    this.flushes.length = 0;
    this.lastDone = this.lastQueued;
    this.sendJson({
      type: 'interrupted',
      last_spoken: spoken.at(-1)?.sentence ?? null,
      text_spoken: spoken.map((s) => s.text).join(' '),
      text_remaining: [...remaining, ...held].join(' '),
    });
  }

  private async close(): Promise<void> {
    this.closing = true;
    this.release(this.splitter?.flush() ?? []);
    const run = this.run;
    if (run) {
      run.queue.end();
      await run.done;
    }
    this.peer.close(STREAM_CLOSE.normal, 'done');
  }

  private requireSettings(type: string): IncrementalSplitter {
    if (!this.splitter) throw RouterError.badRequest(`a ${type} message must come after a settings message`);
    return this.splitter;
  }

  /** Hands released texts to the run, as numbered sentences; unspeakable ones are skipped. */
  private release(texts: readonly string[]): void {
    const plan = this.plan;
    if (!plan) return;
    for (const text of texts) {
      const piece = plan.piece(text);
      if (!piece) continue;
      const sentence = this.nextSentence++;
      this.lastQueued = sentence;
      const run = this.currentRun();
      run.waiting.push({ ...piece, sentence });
      run.queue.push({ ...piece, sentence });
    }
  }

  private currentRun(): ReplyRun {
    if (this.run) return this.run;
    const run: ReplyRun = {
      queue: new AsyncQueue<SentencePiece>(),
      interrupted: new AbortController(),
      left: new AbortController(),
      started: [],
      waiting: [],
      done: Promise.resolve(),
    };
    run.done = this.play(run).catch((error: unknown) => this.fail(error));
    this.run = run;
    return run;
  }

  /** Plays a run's sentences in order until it is interrupted, the client leaves, or its queue ends. */
  private async play(run: ReplyRun): Promise<void> {
    const reply = playReply(this.deps.resolver, run.queue, {
      lookAhead: this.deps.lookAhead,
      left: run.left.signal,
      interrupted: run.interrupted.signal,
    });
    const halted = new Promise<'halted'>((resolve) => {
      const halt = (): void => resolve('halted');
      run.left.signal.addEventListener('abort', halt, { once: true });
      run.interrupted.signal.addEventListener('abort', halt, { once: true });
    });
    try {
      for await (const next of reply) {
        run.waiting.shift();
        const { sentence } = next.request;
        if (next.failure) {
          this.sendError(next.failure, sentence);
        } else {
          const completed = await this.playSentence(run, next.request, next.audio, halted);
          if (!completed) return;
        }
        this.sentenceDone(sentence);
      }
    } finally {
      await reply.return(undefined);
    }
  }

  /** One sentence's messages and audio; false when the run was halted while it played. */
  private async playSentence(
    run: ReplyRun,
    piece: SentencePiece,
    audio: PieceAudio,
    halted: Promise<'halted'>,
  ): Promise<boolean> {
    const release = (): void => (run.interrupted.signal.aborted ? audio.interrupt() : audio.cancel());
    const { sentence } = piece;
    const clock = new AudioClock(piece.settings.format, piece.settings.sampleRate);
    const started: StartedSentence = { sentence, text: piece.text, clock };
    this.sendJson({ type: 'sentence_start', sentence, text: piece.text, cached: audio.cached });
    run.started.push(started);
    let bytes = 0;
    const chunks = audio.chunks[Symbol.asyncIterator]();
    try {
      for (;;) {
        const chunk = await Promise.race([chunks.next(), halted]);
        if (chunk === 'halted') {
          release();
          return false;
        }
        if (chunk.done) break;
        bytes += chunk.value.length;
        clock.push(chunk.value);
        await this.peer.sendAudio(chunk.value);
      }
      const words = await Promise.race([audio.words(), halted]);
      if (words === 'halted') return false;
      if (words) this.sendJson({ type: 'words', sentence, words: publicWords(piece.text, words) });
      this.sendJson({ type: 'sentence_end', sentence, bytes, duration_ms: roundMs(clock.durationMs()) });
      return true;
    } catch (error) {
      release();
      this.sendError(asRouterError(error), sentence);
      return true;
    }
  }

  private sentenceDone(sentence: number): void {
    this.lastDone = sentence;
    while (this.flushes.length > 0 && (this.flushes[0]?.last ?? Infinity) <= sentence) {
      const flush = this.flushes.shift();
      if (flush) this.sendJson({ type: 'flushed', id: flush.id, last_sentence: flush.last });
    }
  }

  private sendError(error: RouterError, sentence?: number): void {
    const { error: body } = error.toEnvelope();
    this.sendJson({ type: 'error', error: body, ...(sentence === undefined ? {} : { sentence }) });
  }

  private sendJson(message: Record<string, unknown>): void {
    if (!this.gone) this.peer.sendJson(message);
  }

  /** A failure of the session itself, not of a sentence: the connection cannot go on. */
  private fail(error: unknown): void {
    this.deps.logger.error({ err: error, sessionId: this.sessionId }, 'stream session failed');
    this.sendError(RouterError.internal(error));
    this.peer.close(STREAM_CLOSE.internal, 'internal error');
    this.disconnected();
  }
}

/**
 * Sentences counted as spoken at an interrupt: those whose audio had started by `playedMs` of reply time, or
 * every started one when the position is unknown (not given, or a compressed format's length).
 */
function spokenSentences(
  started: readonly StartedSentence[],
  playedMs: number | null,
): Array<{ sentence: number; text: string }> {
  if (playedMs === null) return [...started];
  const spoken: Array<{ sentence: number; text: string }> = [];
  let offset = 0;
  for (const [i, s] of started.entries()) {
    if (offset >= playedMs) break;
    const durationMs = s.clock.durationMs();
    if (durationMs === null) return [...spoken, ...started.slice(i)]; // unknown length from here on
    spoken.push(s);
    offset += durationMs;
  }
  return spoken;
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
