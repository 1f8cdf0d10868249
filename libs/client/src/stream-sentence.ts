import { concatBytes } from './bytes';
import { RouterApiError } from './client.errors';
import type { EventQueue } from './event.queue';
import type { StreamEvent, WireWordTiming } from './stream.messages';

/** A word's timing: character offsets into the sentence's `text`, times from the start of its audio. */
export interface WordTiming {
  word: string;
  start: number;
  end: number;
  startMs: number;
  endMs: number;
}

export interface SentenceEnd {
  /** The audio bytes: the router's count at `sentence_end`, or those received when interrupted. */
  bytes: number;
  /** The audio's length, or null where the router cannot tell without decoding (and when interrupted). */
  durationMs: number | null;
  /** True when the sentence was cut off by `interrupt()` (or the session ended) before its end. */
  interrupted: boolean;
}

/** One sentence (piece) of the reply, as `StreamSession.sentences()` yields it. */
export interface Sentence {
  /** Counts the connection's sentences from 0; never restarts. */
  readonly index: number;
  /** The piece as sent to the vendor (whitespace collapsed); empty for a sentence that failed before it started. */
  readonly text: string;
  /** Whether the audio comes from the cache. */
  readonly cached: boolean;
  /**
   * Its audio frames as they arrive (read once). Throws the sentence's RouterApiError if it fails at the
   * vendor, after the frames that did arrive; the session carries on with the next sentence.
   */
  readonly audio: AsyncIterable<Uint8Array>;
  /** All of its audio in one array (reads `audio`). */
  bytes(): Promise<Uint8Array>;
  /** Its word timings (vendor_c `sync_alignment`, vendor_i `word_timestamps`), or null when none were sent. */
  words(): Promise<WordTiming[] | null>;
  /** Resolves when the sentence is complete; rejects with its RouterApiError if it failed. */
  end(): Promise<SentenceEnd>;
}

type Outcome = { end: SentenceEnd } | { error: unknown };

class StreamSentence implements Sentence {
  readonly audio: AsyncIterable<Uint8Array>;
  private frames: Uint8Array[] = [];
  private received = 0;
  private timings: WordTiming[] | null = null;
  private outcome: Outcome | null = null;
  private audioTaken = false;

  constructor(
    readonly index: number,
    readonly text: string,
    readonly cached: boolean,
    private readonly assembler: SentenceAssembler,
  ) {
    this.audio = { [Symbol.asyncIterator]: () => this.readAudio() };
  }

  get settled(): boolean {
    return this.outcome !== null;
  }

  addFrame(data: Uint8Array): void {
    this.frames.push(data);
    this.received += data.length;
  }

  setWords(words: WireWordTiming[]): void {
    this.timings = words.map((w) => ({
      word: w.word,
      start: w.start,
      end: w.end,
      startMs: w.start_ms,
      endMs: w.end_ms,
    }));
  }

  settle(outcome: Outcome | 'interrupted'): void {
    if (this.outcome) return;
    this.outcome =
      outcome === 'interrupted'
        ? { end: { bytes: this.received, durationMs: null, interrupted: true } }
        : outcome;
  }

  async bytes(): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.audio) chunks.push(chunk);
    return concatBytes(chunks);
  }

  async words(): Promise<WordTiming[] | null> {
    while (this.timings === null && !this.outcome) await this.pull();
    if (this.timings === null && this.outcome && 'error' in this.outcome) throw this.outcome.error;
    return this.timings;
  }

  async end(): Promise<SentenceEnd> {
    while (!this.outcome) await this.pull();
    if ('error' in this.outcome) throw this.outcome.error;
    return this.outcome.end;
  }

  private async *readAudio(): AsyncGenerator<Uint8Array> {
    if (this.audioTaken) throw new Error(`The audio of sentence ${this.index} has already been read`);
    this.audioTaken = true;
    for (;;) {
      const frame = this.frames.shift();
      if (frame) {
        yield frame;
        continue;
      }
      if (this.outcome) {
        if ('error' in this.outcome) throw this.outcome.error;
        return;
      }
      await this.pull();
    }
  }

  private async pull(): Promise<void> {
    // Once the events have ended nothing can close this sentence any more (the assembler settles the one
    // open at the end; this guards against waiting forever should that ever be missed).
    if (!(await this.assembler.pump())) this.settle('interrupted');
  }
}

/**
 * Builds sentences from the session's events as they are read: a `sentence_start` opens one, the binary
 * frames after it are its audio, `words` its timings, `sentence_end` (or an `error` naming it, or an
 * `interrupted`) closes it. Whoever needs the next event (the sentence iterator, a sentence's audio, a
 * sentence's `end()`) pulls it; one pull runs at a time.
 */
export class SentenceAssembler {
  private current: StreamSentence | null = null;
  private lastIndex = -1;
  private readonly unyielded: StreamSentence[] = [];
  private pulling: Promise<boolean> | null = null;
  private ending: { error: Error | undefined } | null = null;

  constructor(private readonly events: EventQueue<StreamEvent>) {}

  /** Pulls and routes one event; false once the events have ended. */
  pump(): Promise<boolean> {
    this.pulling ??= this.pullOne().finally(() => {
      this.pulling = null;
    });
    return this.pulling;
  }

  async nextSentence(): Promise<IteratorResult<Sentence>> {
    for (;;) {
      const sentence = this.unyielded.shift();
      if (sentence) return { value: sentence, done: false };
      if (this.ending) {
        if (this.ending.error !== undefined) throw this.ending.error;
        return { value: undefined, done: true };
      }
      await this.pump();
    }
  }

  private async pullOne(): Promise<boolean> {
    let result: IteratorResult<StreamEvent>;
    try {
      result = await this.events.next();
    } catch (error) {
      this.finish(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
    if (result.done) {
      this.finish(undefined);
      return false;
    }
    this.route(result.value);
    return true;
  }

  private route(event: StreamEvent): void {
    switch (event.type) {
      case 'sentence_start': {
        // A sentence left open by an interrupt the server answered late gets no more audio.
        this.current?.settle('interrupted');
        this.current = new StreamSentence(event.sentence, event.text, event.cached, this);
        this.lastIndex = Math.max(this.lastIndex, event.sentence);
        this.unyielded.push(this.current);
        return;
      }
      case 'audio':
        if (this.current && event.sentence === this.current.index) this.current.addFrame(event.data);
        return;
      case 'words':
        if (this.current?.index === event.sentence) this.current.setWords(event.words);
        return;
      case 'sentence_end':
        if (this.current?.index === event.sentence) {
          this.current.settle({
            end: { bytes: event.bytes, durationMs: event.duration_ms, interrupted: false },
          });
          this.current = null;
        }
        return;
      case 'error': {
        if (event.sentence === undefined) return;
        const error = new RouterApiError(event.error, { sentence: event.sentence });
        if (this.current?.index === event.sentence) {
          this.current.settle({ error });
          this.current = null;
        } else if (event.sentence > this.lastIndex) {
          // Failed before its audio started: it still has its place in the reply.
          const failed = new StreamSentence(event.sentence, '', false, this);
          failed.settle({ error });
          this.lastIndex = event.sentence;
          this.unyielded.push(failed);
        }
        return;
      }
      case 'interrupted':
        this.current?.settle('interrupted');
        this.current = null;
        return;
      default:
        return;
    }
  }

  private finish(error: Error | undefined): void {
    this.ending = { error };
    this.current?.settle(error === undefined ? 'interrupted' : { error });
    this.current = null;
  }
}
