import {
  AudioByteStream,
  type TimedString,
  USERDATA_TTS_STARTED_TIME,
  createTimedString,
  type tts,
} from '@livekit/agents';
import type { AudioFrame } from '@livekit/rtc-node';
import { RouterApiError, type StreamEvent } from '@speech-router/client';
import { type PcmFormat, type SentenceDecoder, sentenceDecoder } from './pcm-decoder';
import type { RouterConnection } from './router-connection';

/** A frame's `userdata` key: the router sentence whose audio completed the frame, and whether it was cached. */
export const USERDATA_SENTENCE = 'speech_router.sentence';

/** What a frame's `userdata[USERDATA_SENTENCE]` holds. */
export interface FrameSentence {
  /** The router's index of the sentence on its connection. */
  index: number;
  /** Whether the sentence's audio came from the org's cache. */
  cached: boolean;
}

/** One sentence of a reply, once its audio ended (or was cut off). */
export interface SentenceRecord {
  index: number;
  segmentId: string;
  /** Characters of the sentence as the vendor got it (whitespace collapsed). */
  characters: number;
  cached: boolean;
  /** From the segment's first text (first sentence) or the previous sentence's end, to its first audio; -1 when none came. */
  ttfbMs: number;
  /** From the same moment to its end. */
  durationMs: number;
  audioDurationMs: number;
  cancelled: boolean;
}

export interface ReplyOptions {
  requestId: string;
  format: PcmFormat;
  sampleRate: number;
  /** The bound on each wait for the router while audio is owed (a flush not yet answered, an interrupt). */
  timeoutMs: number;
  put(audio: tts.SynthesizedAudio): void;
  /** Each sentence once its audio ended or was cut off. */
  onSentence(record: SentenceRecord): void;
  /** A sentence the vendor failed: the reply goes on with the next one. */
  onSentenceError(error: RouterApiError): void;
}

/** The router closed the connection in the middle of a reply. */
export class ReplyCutError extends Error {
  override readonly name: string = 'ReplyCutError';
}

interface Segment {
  id: string;
  /** `performance.now()` seconds and hrtime when its first text was sent (the framework's TTFB anchor). */
  startedAt: number;
  startedHr: bigint;
  /** The end of its last sentence, the anchor of the next sentence's TTFB. */
  lastEndHr: bigint | null;
  /** PCM samples of the segment so far: where its next sentence's word timings start. */
  samples: number;
}

interface SentenceState {
  index: number;
  text: string;
  cached: boolean;
  segment: Segment;
  decoder: SentenceDecoder;
  anchorHr: bigint;
  firstAudioHr: bigint | null;
  /** The segment's samples before this sentence. */
  offset: number;
  samples: number;
}

/** Resolves once settled, then is replaced: how the input side tells the reader something changed. */
class Signal {
  private resolve!: () => void;
  promise: Promise<void> = this.reset();

  reset(): Promise<void> {
    this.promise = new Promise<void>((resolve) => (this.resolve = resolve));
    return this.promise;
  }

  /** Replaces a fired signal with a fresh one. */
  renew(): void {
    void this.reset();
  }

  fire(): void {
    this.resolve();
  }
}

/**
 * One reply spoken over a pooled `/v1/stream` connection: text and flushes go out as the agent writes them;
 * the router's sentences come back in order and leave as the framework's audio packets, in frames of a fixed
 * size (100 ms; the last of each segment shorter), the last frame of each flushed segment marked `final`, word
 * timings attached as the framework's timed transcripts, each frame's `userdata` naming its sentence. An
 * interruption sends `interrupt` and reads everything up to the router's `interrupted`, so nothing of this
 * reply is left for the next one on the connection.
 */
export class Reply {
  /** Text has gone to the router: an abort must interrupt it. */
  started = false;
  /** Audio has gone to the framework: the reply cannot be retried without repeating it. */
  emittedAudio = false;
  private readonly flushed: Segment[] = [];
  private open: Segment | null = null;
  private inputEnded = false;
  private finished = false;
  private readonly changed = new Signal();
  private sentence: SentenceState | null = null;
  private held: tts.SynthesizedAudio | null = null;
  /** The sentence of the last frame, for a segment's last frame (flushed after its sentence ended). */
  private lastSentence: SentenceState | null = null;
  private words: TimedString[] = [];
  private readonly frames: AudioByteStream;
  private segments = 0;

  constructor(
    private readonly conn: RouterConnection,
    private readonly options: ReplyOptions,
  ) {
    this.frames = new AudioByteStream(options.sampleRate, 1);
  }

  /** A delta of the reply's text. */
  send(text: string): void {
    if (text === '') return;
    this.open ??= this.newSegment();
    this.conn.session.send(text);
    this.started = true;
  }

  /** Ends the segment in progress: the router speaks what it holds and answers with `flushed`. */
  flush(): void {
    const segment = this.open;
    if (!segment) return;
    this.open = null;
    void this.conn.session.flush(segment.id);
    this.flushed.push(segment);
    this.changed.fire();
  }

  /** No more text: the reply ends once every flushed segment has been answered. */
  endInput(): void {
    this.flush();
    this.inputEnded = true;
    this.changed.fire();
  }

  /**
   * Reads the router's answers until the input has ended and every segment was answered, or `signal` aborts.
   * Waits are bounded by `timeoutMs` while audio is owed; while the agent is still writing, they are not.
   */
  async receive(signal: AbortSignal): Promise<void> {
    const aborted = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    while (!(this.inputEnded && this.flushed.length === 0)) {
      if (signal.aborted) return;
      const owed = this.flushed.length > 0;
      const next = await this.conn.next(
        owed ? this.options.timeoutMs : undefined,
        Promise.race([this.changed.promise, aborted]),
      );
      if (next.kind === 'woken') {
        this.changed.renew();
        continue;
      }
      if (next.kind === 'ended')
        throw new ReplyCutError('The router closed the stream in the middle of a reply');
      this.handle(next.event);
    }
    this.finished = true;
  }

  /**
   * The listener barged in: the router stops the reply, and its answers up to `interrupted` are read and
   * dropped, so the connection carries nothing of this reply into the next. A no-op when nothing was sent or
   * the reply had finished.
   */
  async interrupt(): Promise<void> {
    if (!this.started || this.finished) return;
    this.finished = true;
    const cut = this.sentence;
    this.sentence = null;
    if (cut) this.record(cut, true);
    void this.conn.session.interrupt();
    for (;;) {
      const next = await this.conn.next(this.options.timeoutMs);
      if (next.kind === 'ended')
        throw new ReplyCutError('The router closed the stream before it answered the interrupt');
      if (next.kind === 'event' && next.event.type === 'interrupted') return;
    }
  }

  private newSegment(): Segment {
    this.segments += 1;
    return {
      id: `${this.options.requestId}-${this.segments}`,
      startedAt: performance.now() / 1000,
      startedHr: process.hrtime.bigint(),
      lastEndHr: null,
      samples: 0,
    };
  }

  /** The segment the router is speaking now: the oldest flushed one, else the one still being written. */
  private get current(): Segment | null {
    return this.flushed[0] ?? this.open;
  }

  private handle(event: StreamEvent): void {
    switch (event.type) {
      case 'sentence_start': {
        const segment = this.current;
        if (!segment) return;
        this.sentence = {
          index: event.sentence,
          text: event.text,
          cached: event.cached,
          segment,
          decoder: sentenceDecoder(this.options.format, this.options.sampleRate),
          anchorHr: segment.lastEndHr ?? segment.startedHr,
          firstAudioHr: null,
          offset: segment.samples,
          samples: 0,
        };
        return;
      }
      case 'audio': {
        const sentence = this.sentence;
        if (!sentence || event.sentence !== sentence.index) return;
        const pcm = sentence.decoder.write(event.data);
        if (pcm.length === 0) return;
        sentence.firstAudioHr ??= process.hrtime.bigint();
        sentence.samples += pcm.length / 2;
        sentence.segment.samples += pcm.length / 2;
        for (const frame of this.frames.write(pcm)) this.emit(frame, sentence);
        return;
      }
      case 'words': {
        const sentence = this.sentence;
        if (!sentence || event.sentence !== sentence.index) return;
        const offset = sentence.offset / this.options.sampleRate;
        const timed = event.words.map((w) =>
          createTimedString({
            text: `${w.word} `,
            startTime: offset + w.start_ms / 1000,
            endTime: offset + w.end_ms / 1000,
          }),
        );
        // They belong with the sentence's audio: on its frame still held back, else on the next one.
        if (this.held) this.held.timedTranscripts = [...(this.held.timedTranscripts ?? []), ...timed];
        else this.words.push(...timed);
        return;
      }
      case 'sentence_end': {
        const sentence = this.sentence;
        if (!sentence || event.sentence !== sentence.index) return;
        this.sentence = null;
        this.record(sentence, false);
        sentence.segment.lastEndHr = process.hrtime.bigint();
        return;
      }
      case 'error': {
        const error = new RouterApiError(
          event.error,
          event.sentence === undefined ? {} : { sentence: event.sentence },
        );
        // An error naming no sentence is the connection's (the settings were answered before the reply began).
        if (event.sentence === undefined) throw error;
        if (this.sentence?.index === event.sentence) this.sentence = null;
        this.options.onSentenceError(error);
        return;
      }
      case 'flushed': {
        if (this.flushed[0]?.id !== event.id) return;
        this.endSegment(this.flushed.shift() as Segment);
        return;
      }
      default:
        return;
    }
  }

  /** The segment's last audio leaves, its last frame marked final. */
  private endSegment(segment: Segment): void {
    for (const frame of this.frames.flush()) {
      if (frame.samplesPerChannel > 0) this.emit(frame, null, segment);
    }
    const last = this.held;
    this.held = null;
    if (!last) return;
    last.final = true;
    if (this.words.length > 0)
      last.timedTranscripts = [...(last.timedTranscripts ?? []), ...this.words.splice(0)];
    this.options.put(last);
  }

  /** A frame leaves one step late, so the segment's last one can still be marked final. */
  private emit(
    frame: AudioFrame,
    sentence: SentenceState | null,
    segment: Segment = (sentence as SentenceState).segment,
  ): void {
    frame.userdata[USERDATA_TTS_STARTED_TIME] = segment.startedAt;
    const heldSentence = sentence ?? this.lastSentence;
    if (heldSentence) {
      const info: FrameSentence = { index: heldSentence.index, cached: heldSentence.cached };
      frame.userdata[USERDATA_SENTENCE] = info;
    }
    const packet: tts.SynthesizedAudio = {
      requestId: this.options.requestId,
      segmentId: segment.id,
      frame,
      final: false,
    };
    if (this.words.length > 0) packet.timedTranscripts = this.words.splice(0);
    if (this.held) this.options.put(this.held);
    this.held = packet;
    this.emittedAudio = true;
    if (sentence) this.lastSentence = sentence;
  }

  private record(sentence: SentenceState, cancelled: boolean): void {
    const now = process.hrtime.bigint();
    const ms = (from: bigint, to: bigint): number => Number((to - from) / 1_000_000n);
    this.options.onSentence({
      index: sentence.index,
      segmentId: sentence.segment.id,
      characters: sentence.text.length,
      cached: sentence.cached,
      ttfbMs: sentence.firstAudioHr === null ? -1 : ms(sentence.anchorHr, sentence.firstAudioHr),
      durationMs: ms(sentence.anchorHr, now),
      audioDurationMs: Math.round((sentence.samples / this.options.sampleRate) * 1000),
      cancelled,
    });
  }
}
