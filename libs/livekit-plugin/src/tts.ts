import { randomUUID } from 'node:crypto';
import {
  APIConnectionError,
  APIError,
  APIStatusError,
  APITimeoutError,
  type APIConnectOptions,
  ConnectionPool,
  DEFAULT_API_CONNECT_OPTIONS,
  type TTSMetrics,
  tts,
} from '@livekit/agents';
import { RouterApiError, RouterClient, RouterConnectionError } from '@speech-router/client';
import { AudioFormatError } from './pcm-decoder';
import { Reply, ReplyCutError, type SentenceRecord } from './reply';
import { RouterConnection, RouterTimeoutError } from './router-connection';
import {
  type ResolvedVoice,
  type TTSOptions,
  type VoiceOptions,
  resolveRouter,
  resolveVoice,
} from './tts.options';

/**
 * The framework's TTS metrics for one sentence of a streamed reply, with what the router adds: the sentence's
 * index on its connection and whether its audio came from the org's cache (no vendor call, nothing billed).
 */
export interface RouterTTSMetrics extends TTSMetrics {
  sentence: number;
  cached: boolean;
}

/** Whether a `metrics_collected` event is one of this plugin's per-sentence records. */
export function isRouterTTSMetrics(metrics: { type: string }): metrics is RouterTTSMetrics {
  return metrics.type === 'tts_metrics' && 'cached' in metrics && 'sentence' in metrics;
}

/** What the TTS shares with the streams it makes (its private fields are not reachable from them). */
interface VoiceContext {
  voice: ResolvedVoice;
  pool: ConnectionPool<RouterConnection>;
  /**
   * Replies that were interrupted and are waiting for the router to confirm it: the next reply waits for them
   * (one round trip), so it gets their connection back instead of opening another.
   */
  settling: Set<Promise<void>>;
}

const PROVIDER = 'speech-router';

/**
 * The speech router as a LiveKit Agents TTS, for any of its ten vendors: `stream()` speaks the agent's LLM
 * tokens over the router's `/v1/stream` (sentences resolved from the org's cache or the vendor, in order),
 * `synthesize()` a whole text over the same connection. One connection is kept and reused across replies.
 */
export class TTS extends tts.TTS {
  label = `${PROVIDER}.TTS`;
  #voice: ResolvedVoice;
  readonly #pool: ConnectionPool<RouterConnection>;
  readonly #settling: Set<Promise<void>> = new Set();

  constructor(options: TTSOptions) {
    const voice = resolveVoice(options);
    super(voice.sampleRate, 1, {
      streaming: true,
      alignedTranscript: voice.wordTimings,
    });
    const router = resolveRouter(options, process.env);
    const client = new RouterClient({
      baseUrl: router.baseUrl,
      apiKey: router.apiKey,
      ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}),
    });
    this.#voice = voice;
    this.#pool = new ConnectionPool<RouterConnection>({
      connectCb: async (timeoutMs) => {
        const conn = await RouterConnection.open(client, this.#voice.settings, timeoutMs);
        // A connection the router closes while idle leaves the pool at once.
        void conn.session.closed.then(() => this.#pool.remove(conn));
        return conn;
      },
      closeCb: (conn) => Promise.resolve(conn.close()),
    });
  }

  /** `<vendor>/<model>`. */
  override get model(): string {
    return this.#voice.modelId;
  }

  override get provider(): string {
    return PROVIDER;
  }

  /**
   * New voice settings for the replies that start after this call (the connection stays; its next reply sends
   * them). The sample rate is the framework's for this TTS and cannot change.
   */
  updateOptions(options: VoiceOptions): void {
    const voice = resolveVoice(options);
    if (voice.sampleRate !== this.sampleRate) {
      throw new Error(`sampleRate cannot change from ${this.sampleRate} (it is the TTS's output rate)`);
    }
    this.#voice = voice;
  }

  synthesize(text: string, connOptions?: APIConnectOptions, abortSignal?: AbortSignal): ChunkedStream {
    return new ChunkedStream(this, this.#context(), text, connOptions, abortSignal);
  }

  stream(options?: { connOptions?: APIConnectOptions }): SynthesizeStream {
    return new SynthesizeStream(this, this.#context(), options?.connOptions);
  }

  /** Opens the connection ahead of the first reply. */
  prewarm(): void {
    this.#pool.prewarm();
  }

  override async close(): Promise<void> {
    await this.#pool.close();
  }

  #context(): VoiceContext {
    return { voice: this.#voice, pool: this.#pool, settling: this.#settling };
  }
}

/** `synthesize()`: a whole text, spoken over the pooled `/v1/stream` connection. */
export class ChunkedStream extends tts.ChunkedStream {
  label = `${PROVIDER}.ChunkedStream`;
  readonly #tts: TTS;
  readonly #context: VoiceContext;
  readonly #timeoutMs: number;

  constructor(
    ttsInstance: TTS,
    context: VoiceContext,
    text: string,
    connOptions: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS,
    abortSignal?: AbortSignal,
  ) {
    super(text, ttsInstance, connOptions, abortSignal);
    this.#tts = ttsInstance;
    this.#context = context;
    this.#timeoutMs = connOptions.timeoutMs;
  }

  protected async run(): Promise<void> {
    await speak(this.#tts, this.#context, this.#timeoutMs, this.abortSignal, {
      put: (audio) => {
        if (!this.queue.closed) this.queue.put(audio);
      },
      // The framework reports one record for the whole text (characters, TTFB); each frame names its sentence.
      onSentence: () => undefined,
      write: (reply) => {
        reply.send(this.inputText);
        reply.endInput();
        return Promise.resolve();
      },
    });
  }
}

/** `stream()`: the agent's LLM tokens in, the router's sentences out as they resolve. */
export class SynthesizeStream extends tts.SynthesizeStream {
  label = `${PROVIDER}.SynthesizeStream`;
  readonly #tts: TTS;
  readonly #context: VoiceContext;

  constructor(
    ttsInstance: TTS,
    context: VoiceContext,
    connOptions: APIConnectOptions = DEFAULT_API_CONNECT_OPTIONS,
  ) {
    super(ttsInstance, connOptions);
    this.#tts = ttsInstance;
    this.#context = context;
  }

  protected async run(): Promise<void> {
    const modelName = this.#tts.model;
    const label = this.#tts.label;
    const completed = await speak(this.#tts, this.#context, this.connOptions.timeoutMs, this.abortSignal, {
      put: (audio) => {
        if (!this.queue.closed) this.queue.put(audio);
      },
      // One framework metrics record per sentence, each saying whether it came from the cache. (The base
      // class's per-segment record is not made: this plugin never marks the stream started, it stamps the
      // framework's TTFB anchor on each frame itself.)
      onSentence: (record, requestId) => {
        const metrics: RouterTTSMetrics = {
          type: 'tts_metrics',
          label,
          requestId,
          segmentId: record.segmentId,
          timestamp: Date.now(),
          ttfbMs: record.ttfbMs,
          durationMs: record.durationMs,
          audioDurationMs: record.audioDurationMs,
          cancelled: record.cancelled,
          charactersCount: record.characters,
          streamed: true,
          metadata: { modelProvider: PROVIDER, modelName },
          sentence: record.index,
          cached: record.cached,
        };
        this.#tts.emit('metrics_collected', metrics);
      },
      write: async (reply, signal) => {
        for await (const data of this.input) {
          if (signal.aborted) return;
          if (data === SynthesizeStream.FLUSH_SENTINEL) reply.flush();
          else reply.send(data);
        }
        if (!signal.aborted) reply.endInput();
      },
    });
    if (completed && !this.queue.closed) this.queue.put(SynthesizeStream.END_OF_STREAM);
  }
}

interface SpeakHooks {
  put(audio: tts.SynthesizedAudio): void;
  onSentence(record: SentenceRecord, requestId: string): void;
  /** Sends the reply's text (and flushes) as it comes; returns when the input has ended or `signal` aborted. */
  write(reply: Reply, signal: AbortSignal): Promise<void>;
}

/**
 * One reply on a pooled connection; true when it completed, false when `signal` interrupted it. The
 * connection goes back to the pool after a completed or interrupted reply, and is closed after a failure.
 */
async function speak(
  ttsInstance: TTS,
  context: VoiceContext,
  timeoutMs: number,
  signal: AbortSignal,
  hooks: SpeakHooks,
): Promise<boolean> {
  // Registered as the abort happens (abort listeners run at once), so a reply started right after an
  // interruption already sees it.
  let settled!: () => void;
  const settling = new Promise<void>((resolve) => (settled = resolve));
  const onAbort = (): void => void context.settling.add(settling);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all(context.settling);
    return await speakOn(
      await acquire(context.pool, timeoutMs),
      ttsInstance,
      context,
      timeoutMs,
      signal,
      hooks,
    );
  } finally {
    signal.removeEventListener('abort', onAbort);
    context.settling.delete(settling);
    settled();
  }
}

async function speakOn(
  conn: RouterConnection,
  ttsInstance: TTS,
  context: VoiceContext,
  timeoutMs: number,
  signal: AbortSignal,
  hooks: SpeakHooks,
): Promise<boolean> {
  const requestId = randomUUID();
  const reply = new Reply(conn, {
    requestId,
    format: context.voice.format,
    sampleRate: context.voice.sampleRate,
    timeoutMs,
    put: (audio) => hooks.put(audio),
    onSentence: (record) => hooks.onSentence(record, requestId),
    onSentenceError: (error) => {
      // A failed sentence is skipped and the reply goes on, as the router does; the framework hears of it.
      if (ttsInstance.listenerCount('error') === 0) return;
      ttsInstance.emit('error', {
        type: 'tts_error',
        timestamp: Date.now(),
        label: ttsInstance.label,
        error: toApiError(error, false),
        recoverable: true,
      });
    },
  });
  try {
    if (!signal.aborted) await conn.use(context.voice.settings, timeoutMs);
    if (!signal.aborted) await Promise.all([hooks.write(reply, signal), reply.receive(signal)]);
    if (signal.aborted) await reply.interrupt();
  } catch (error) {
    context.pool.remove(conn);
    if (signal.aborted) return false;
    // A retry would repeat what the framework already has (audio, or text read from its input).
    throw toApiError(error, !reply.started && !reply.emittedAudio);
  }
  context.pool.put(conn);
  return !signal.aborted;
}

/** A pooled connection that is still open (one the router closed while idle is dropped, and another made). */
async function acquire(pool: ConnectionPool<RouterConnection>, timeoutMs: number): Promise<RouterConnection> {
  for (;;) {
    let conn: RouterConnection;
    try {
      conn = await pool.get(timeoutMs);
    } catch (error) {
      throw toApiError(error, true);
    }
    if (conn.open) return conn;
    pool.remove(conn);
  }
}

/** The framework's error for a router failure, retryable where the router says so and a retry is safe. */
function toApiError(error: unknown, safeToRetry: boolean): APIError {
  if (error instanceof APIError) return error;
  if (error instanceof RouterApiError) {
    return new APIStatusError({
      message: `${error.code}: ${error.message}`,
      options: {
        statusCode: error.httpStatus ?? error.providerStatus ?? -1,
        retryable: error.retryable && safeToRetry,
        body: error.body,
      },
    });
  }
  if (error instanceof RouterTimeoutError) {
    return new APITimeoutError({ message: error.message, options: { retryable: safeToRetry } });
  }
  if (error instanceof RouterConnectionError || error instanceof ReplyCutError) {
    return new APIConnectionError({ message: error.message, options: { retryable: safeToRetry } });
  }
  if (error instanceof AudioFormatError) return new APIError(error.message, { retryable: false });
  const message = error instanceof Error ? error.message : String(error);
  return new APIError(message, { retryable: false });
}
