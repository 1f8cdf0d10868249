import type { RouterError, SynthSettings } from '@router/contracts';
import { createIncrementalSplitter, type IncrementalSplitter } from '@router/text';
import type { SentenceEnd, VendorDefinition } from '@router/vendors-core';
import { AsyncQueue } from './async-queue';
import { AudioClock } from './audio-clock';
import type { PieceAudio, PieceRequest, PieceResolver } from './piece-resolver';
import { playPieces, type ReplySink } from './play-pieces';
import type { ReplyPlan, ReplyPlanner } from './reply-planner';
import type { RequestTally } from './request-log';

/** How a streamed reply's events look on a surface's socket. Every sentence is numbered per stream from 0. */
export interface ReplyStreamEvents {
  /** The sentence's audio starts; `contentType` is its take's (the vendor's, for its format). */
  sentenceStart(sentence: { sentence: number; text: string; cached: boolean; contentType: string }): void;
  /** One chunk of the sentence's audio, as the vendor made it; resolves once the socket can take more. */
  audio(chunk: Buffer, sentence: number): void | Promise<void>;
  /** The sentence's audio has all been sent: its facts (`durationMs` where its format tells, see AudioClock). */
  sentenceEnd(sentence: SentenceEnd): void;
  /** The sentence could not be spoken (or was cut); the stream goes on with the next one. */
  sentenceFailed(sentence: number, error: RouterError): void;
  /** The stream itself failed (not one sentence): it cannot go on. */
  failed(error: unknown): void;
}

export interface ReplyStreamDeps {
  resolver: PieceResolver;
  planner: ReplyPlanner;
  lookAhead: number;
  /**
   * How old a stream's plan may grow before the next text re-plans it, so that a long-lived connection
   * follows retention changes and settings stored at the vendor as a new request would (their own caches
   * decide how fresh they are; this only bounds how often a stream asks).
   */
  replanAfterMs: number;
  /**
   * Text the splitter may hold without releasing a piece. It releases text without a sentence end in pieces
   * within the vendor's limit; what it can still hold is text after a full stop that nothing has settled yet
   * (only spaces and digits after `etc.`), which is spoken past this bound rather than held without limit.
   */
  maxHeldChars: number;
  now: () => number;
  /** The session's request log tally: every sentence started, its first audio and failures (see RequestTally). */
  tally?: RequestTally;
}

/** What an interrupt cut: sentences counted as spoken, and the text of the rest (unplayed or never sent). */
export interface Interruption {
  spoken: Array<{ sentence: number; text: string }>;
  remaining: string[];
  /**
   * Whether the interrupt stopped anything: a sentence playing or waiting, or text held. False once every
   * sentence had ended and nothing was held (a vendor that warns there was nothing to interrupt).
   */
  stopped: boolean;
  /**
   * The flushes the interrupt forgot (asked, not yet answered), in the order asked: each its label and how many
   * of `remaining`, from the start, come before its end, so a surface can tell one request's rest from a later
   * request's (text held is after every flush).
   */
  unanswered: Array<{ label: string | undefined; through: number }>;
}

interface SentencePiece extends PieceRequest {
  sentence: number;
}

/** A sentence whose audio has started; its clock counts the audio played so far. */
interface StartedSentence {
  sentence: number;
  text: string;
  clock: AudioClock;
}

/** One run of sentences: from the first after the stream opened (or after an interrupt) to the next interrupt. */
interface ReplyRun {
  queue: AsyncQueue<SentencePiece>;
  interrupted: AbortController;
  left: AbortController;
  started: StartedSentence[];
  /** Sentences handed to the run whose audio has not started. */
  waiting: SentencePiece[];
  done: Promise<void>;
}

/**
 * A reply whose text arrives over time, as on every streaming surface (native /v1/stream, the vendors'
 * sockets): settings, text split into sentences as it comes, each sentence played in order through the
 * pipeline, with flush, interrupt, settings changes, finish and client gone. The surface parses its own
 * messages, calls these in the order they came (one at a time), and renders the events in its own shapes.
 */
export class ReplyStream {
  private plan: ReplyPlan | null = null;
  private planned: { def: VendorDefinition; settings: SynthSettings; at: number } | null = null;
  private splitter: IncrementalSplitter | null = null;
  /** Characters pushed to the splitter since it last released a piece. */
  private heldChars = 0;
  private run: ReplyRun | null = null;
  private nextSentence = 0;
  /** The last sentence handed to a run, and the last one whose audio ended or failed. */
  private lastQueued: number | null = null;
  private lastDone: number | null = null;
  private readonly flushes: Array<{ last: number; label: string | undefined; done: (last: number) => void }> =
    [];
  /** Sentences up to this one were dropped (`drop`): not resolved, or released unheard when they come up. */
  private droppedThrough = -1;
  private gone = false;
  /** Text pushed since the last flush, finish, drain or interrupt (part of it may wait in the splitter). */
  private unflushed = false;
  private readonly quietWaiters: Array<() => void> = [];

  constructor(
    private readonly orgId: string,
    private readonly deps: ReplyStreamDeps,
    private readonly events: ReplyStreamEvents,
  ) {}

  /** Whether settings have been given; text, flush and interrupt need them. */
  get configured(): boolean {
    return this.splitter !== null;
  }

  /**
   * Whether the stream has nothing in hand: every sentence released has ended (played, failed or dropped),
   * and no text awaits a flush. A socket that drains closes once its streams are quiet.
   */
  get quiet(): boolean {
    return (
      this.gone ||
      (!this.unflushed &&
        (this.lastQueued === null || (this.lastDone !== null && this.lastDone >= this.lastQueued)))
    );
  }

  /** Resolves once the stream is quiet (at once when it is). */
  whenQuiet(): Promise<void> {
    if (this.quiet) return Promise.resolve();
    return new Promise((resolve) => this.quietWaiters.push(resolve));
  }

  /**
   * New settings for the sentences that follow; text held under the old ones is spoken with them. Throws (a
   * RouterError) when the settings cannot be planned; the stream is then unchanged.
   */
  async configure(def: VendorDefinition, settings: SynthSettings): Promise<ReplyPlan> {
    const at = this.deps.now();
    const plan = await this.deps.planner.plan(this.orgId, def, settings);
    this.release(this.splitter?.flush() ?? []);
    this.plan = plan;
    this.planned = { def, settings, at };
    this.deps.tally?.settings(plan.settings);
    this.splitter = createIncrementalSplitter(plan.def.splitter, plan.def.maxInputChars);
    return plan;
  }

  /** Re-plans when the plan is older than `replanAfterMs`; call before text, flush and finish. */
  async refresh(): Promise<void> {
    const planned = this.planned;
    if (!planned || this.deps.now() - planned.at < this.deps.replanAfterMs) return;
    planned.at = this.deps.now();
    this.plan = await this.deps.planner.plan(this.orgId, planned.def, planned.settings);
  }

  push(text: string): void {
    const splitter = this.requireSplitter();
    if (text.length > 0) this.unflushed = true;
    this.heldChars += text.length;
    const pieces = splitter.push(text);
    if (pieces.length > 0) this.heldChars = 0;
    this.release(pieces);
    if (this.heldChars > this.deps.maxHeldChars) {
      this.heldChars = 0;
      this.release(splitter.flush());
    }
  }

  /**
   * Ends the sentence in progress. `done` is called with the last sentence so far once its audio has ended
   * (at once when it already has), or with null when there is none; never when an interrupt drops it first.
   * `label` names the flush for `drop`.
   */
  flush(done: (last: number | null) => void, label?: string): void {
    const splitter = this.requireSplitter();
    this.heldChars = 0;
    this.unflushed = false;
    this.release(splitter.flush());
    const last = this.lastQueued;
    if (last === null || (this.lastDone !== null && this.lastDone >= last)) done(last);
    else this.flushes.push({ last, label, done });
    this.wakeIfQuiet();
  }

  /**
   * Drops the rest of a failed request: the sentences still to play up to the end of the first pending flush
   * labelled `through`, or, without one, every sentence still to play and the text held. A dropped sentence
   * not resolved yet is never sent to the vendor; one resolved ahead is interrupted unheard as it comes up;
   * one playing plays out. Flushes in the dropped part are answered in order, as their sentences are passed.
   * Later text and sentences after the bound play as usual.
   */
  drop(through?: string): void {
    const bound = through === undefined ? undefined : this.flushes.find((f) => f.label === through);
    if (!bound) {
      this.splitter?.flush();
      this.heldChars = 0;
      this.unflushed = false;
    }
    const last = bound ? bound.last : this.lastQueued;
    if (last !== null) this.droppedThrough = Math.max(this.droppedThrough, last);
    this.wakeIfQuiet();
  }

  /**
   * Stops the reply: the sentence playing and those resolved ahead are interrupted (stopped at the vendor
   * unless the vendor finishes them), the rest dropped, and pending flushes forgotten. `playedMs` is how much
   * of the reply the listener heard, when known.
   */
  async interrupt(playedMs: number | null): Promise<Interruption> {
    const run = this.run;
    this.run = null;
    const held = this.splitter?.flush() ?? [];
    this.heldChars = 0;
    this.unflushed = false;
    const unfinished =
      this.lastQueued !== null && (this.lastDone === null || this.lastDone < this.lastQueued);
    let spoken: Interruption['spoken'] = [];
    let rest: Array<{ sentence: number; text: string }> = [];
    if (run) {
      run.interrupted.abort();
      run.queue.end();
      await run.done;
      spoken = spokenSentences(run.started, playedMs);
      const waiting = run.waiting.filter((p) => p.sentence > this.droppedThrough);
      rest = [...run.started.slice(spoken.length), ...waiting];
    }
    const unanswered = this.flushes.map(({ label, last }) => ({
      label,
      through: rest.filter((s) => s.sentence <= last).length,
    }));
    this.flushes.length = 0;
    this.lastDone = this.lastQueued;
    this.wakeIfQuiet();
    return {
      spoken,
      remaining: [...rest.map((s) => s.text), ...held],
      stopped: unfinished || held.length > 0,
      unanswered,
    };
  }

  /** No more text: what is held is spoken, and this resolves once every sentence has played. */
  async finish(): Promise<void> {
    this.unflushed = false;
    this.release(this.splitter?.flush() ?? []);
    await this.playOut();
  }

  /**
   * No more text, and what no flush has ended is dropped: text the splitter still holds (not yet a sentence)
   * is never spoken, and this resolves once every sentence released before has played (pending flushes are
   * answered as their sentences end).
   */
  async drain(): Promise<void> {
    this.splitter?.flush();
    this.heldChars = 0;
    this.unflushed = false;
    await this.playOut();
  }

  /** The client closed the socket or lost it: running takes finish and are cached; nothing new starts. */
  disconnected(): void {
    this.gone = true;
    this.run?.left.abort();
    this.run?.queue.end();
    this.wakeIfQuiet();
  }

  private wakeIfQuiet(): void {
    if (!this.quiet) return;
    for (const wake of this.quietWaiters.splice(0)) wake();
  }

  /** Ends the run: nothing more is queued, and this resolves once what was queued has played. */
  private async playOut(): Promise<void> {
    const run = this.run;
    if (run) {
      run.queue.end();
      await run.done;
    }
  }

  private requireSplitter(): IncrementalSplitter {
    if (!this.splitter) throw new Error('ReplyStream: configure() first');
    return this.splitter;
  }

  /** Hands released texts to the run, as numbered sentences; unspeakable ones are skipped. */
  private release(texts: readonly string[]): void {
    const plan = this.plan;
    if (!plan || this.gone) return;
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
    run.done = this.play(run).catch((error: unknown) => this.events.failed(error));
    this.run = run;
    return run;
  }

  private async play(run: ReplyRun): Promise<void> {
    const { resolver } = this.deps;
    await playPieces(
      {
        // A sentence dropped before it was resolved never reaches the vendor; it comes up to be passed over.
        resolve: (piece: SentencePiece) =>
          piece.sentence <= this.droppedThrough ? Promise.reject(DROPPED) : resolver.resolve(piece),
      },
      run.queue,
      { lookAhead: this.deps.lookAhead, left: run.left.signal, interrupted: run.interrupted.signal },
      this.sinkOf(run),
    );
  }

  private sinkOf(run: ReplyRun): ReplySink<SentencePiece> {
    let clock: AudioClock | null = null;
    let cached = false;
    return {
      wantsWords: true,
      dropped: (piece: SentencePiece) => {
        if (piece.sentence > this.droppedThrough) return false;
        run.waiting.shift();
        this.sentenceDone(piece.sentence);
        return true;
      },
      pieceStart: (piece: SentencePiece, audio: PieceAudio) => {
        run.waiting.shift();
        clock = new AudioClock(piece.settings.format, piece.settings.sampleRate);
        cached = audio.cached;
        this.deps.tally?.settings(piece.settings);
        this.deps.tally?.sentence(piece.text.length, audio.cached);
        run.started.push({ sentence: piece.sentence, text: piece.text, clock });
        this.events.sentenceStart({
          sentence: piece.sentence,
          text: piece.text,
          cached: audio.cached,
          contentType: audio.contentType,
        });
      },
      write: (chunk, piece) => {
        clock?.push(chunk);
        this.deps.tally?.audio();
        return this.events.audio(chunk, piece.sentence);
      },
      pieceEnd: (piece, { bytes, words, chars, warning }) => {
        this.events.sentenceEnd({
          sentence: piece.sentence,
          text: piece.text,
          cached,
          bytes,
          durationMs: clock?.durationMs() ?? null,
          words,
          chars,
          warning,
        });
        this.sentenceDone(piece.sentence);
      },
      pieceFailed: (piece, error, started) => {
        if (!started) run.waiting.shift();
        this.deps.tally?.failed(error.code);
        this.events.sentenceFailed(piece.sentence, error);
        this.sentenceDone(piece.sentence);
        return 'continue';
      },
    };
  }

  private sentenceDone(sentence: number): void {
    this.lastDone = sentence;
    while (this.flushes.length > 0 && (this.flushes[0]?.last ?? Infinity) <= sentence) {
      const flush = this.flushes.shift();
      flush?.done(flush.last);
    }
    this.wakeIfQuiet();
  }
}

/** Why a dropped sentence was never resolved (never seen: the sink passes over it first). */
const DROPPED = new Error('dropped');

/**
 * Sentences counted as spoken at an interrupt: those whose audio had started by `playedMs` of reply time, or
 * every started one when the position is unknown (not given, or a compressed format's length).
 */
function spokenSentences(
  started: readonly StartedSentence[],
  playedMs: number | null,
): Interruption['spoken'] {
  if (playedMs === null) return started.map(({ sentence, text }) => ({ sentence, text }));
  const spoken: Interruption['spoken'] = [];
  let offset = 0;
  for (const [i, s] of started.entries()) {
    if (offset >= playedMs) break;
    const durationMs = s.clock.durationMs();
    if (durationMs === null) {
      // unknown length from here on
      return [...spoken, ...started.slice(i).map(({ sentence, text }) => ({ sentence, text }))];
    }
    spoken.push({ sentence: s.sentence, text: s.text });
    offset += durationMs;
  }
  return spoken;
}
