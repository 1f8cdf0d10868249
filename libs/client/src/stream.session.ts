import { concatBytes } from './bytes';
import { RouterApiError, RouterConnectionError, StreamClosedError, errorFromResponse } from './client.errors';
import { EventQueue } from './event.queue';
import { type Sentence, SentenceAssembler } from './stream-sentence';
import {
  type ClientMessage,
  type FlushedMessage,
  type InterruptedMessage,
  type ResolvedStreamSettings,
  type ServerMessage,
  ProtocolViolation,
  type StreamEvent,
  type StreamSettings,
  parseServerMessage,
  textMessages,
} from './stream.messages';
import {
  type HandshakeResponse,
  type WebSocketConstructor,
  type WebSocketData,
  type WebSocketLike,
  frameBytes,
  frameText,
} from './websocket.types';

export interface StreamOptions {
  /** Aborting it disconnects the session (or abandons the connection attempt). */
  signal?: AbortSignal;
  /**
   * Errors that belong to no sentence and no pending call (an `internal` failure, say). They are in
   * `events()` too; without this callback a `sentences()` reader does not see them.
   */
  onError?: (error: RouterApiError) => void;
  /** Sees every event (message or audio frame) as it arrives, whoever reads the session. */
  onEvent?: (event: StreamEvent) => void;
  /**
   * Unread audio held before the client stops reading the socket, so a slow reader slows the router down
   * instead of filling memory. Reading resumes while a flush, interrupt, settings change or close waits
   * for its answer. Default 1 MiB.
   */
  maxBufferedBytes?: number;
}

export interface FlushResult {
  /** The flush's `id`, or null. */
  id: string | null;
  /**
   * The last sentence released before the flush on this connection (a flush with no new text names the
   * same one again), or null when none had been (or when an interrupt answered the flush).
   */
  lastSentence: number | null;
  /** True when an `interrupt()` sent after the flush answered it instead (its text was dropped). */
  interrupted: boolean;
}

export interface InterruptResult {
  /** The last sentence counted as spoken, or null. */
  lastSpoken: number | null;
  textSpoken: string;
  /** Started-but-unplayed sentences, unsent sentences and text still held. */
  textRemaining: string;
}

export interface CloseInfo {
  code: number;
  reason: string;
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

interface PendingFlush extends Waiter<FlushResult> {
  id: string | null;
  seq: number;
}

interface PendingInterrupt extends Waiter<InterruptResult> {
  seq: number;
}

const DEFAULT_MAX_BUFFERED_BYTES = 1 << 20;
const MAX_FLUSH_ID_LENGTH = 64;
/** The close code the client uses when the router broke the protocol. */
const PROTOCOL_ERROR = 1002;

/**
 * A promise settled from outside. It counts as handled: a caller may fire a flush or an interrupt without
 * awaiting it, and a session that then closes must not crash the process with an unhandled rejection.
 */
function deferred<T>(): Waiter<T> & { promise: Promise<T> } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * One `/v1/stream` connection (docs/stream-protocol.md). Made by `RouterClient.stream()`, which resolves
 * once the router has accepted the settings. Write with `send`, `flush`, `interrupt`, `updateSettings` and
 * `close`; read with either `sentences()` or `events()` (one reader at a time).
 */
export class StreamSession {
  /** The router's id of this session (from `ready`). */
  sessionId = '';
  /** The settings in force, defaults filled in (from the last `ready`). */
  settings: ResolvedStreamSettings | null = null;
  /** Resolves once the socket has closed, however it closed. */
  readonly closed: Promise<CloseInfo>;

  private readonly queue: EventQueue<StreamEvent>;
  private readonly maxBuffered: number;
  private readonly opened = deferred<void>();
  private readonly closedWaiter = deferred<CloseInfo>();
  private isOpen = false;
  /** A refused handshake's answer is being read: it, not the socket's end, says what went wrong. */
  private refusing = false;
  private paused = false;
  private started: number | null = null;
  private seq = 0;
  private readonly pendingSettings: Array<Waiter<ResolvedStreamSettings>> = [];
  private readonly pendingFlushes: PendingFlush[] = [];
  private readonly pendingInterrupts: PendingInterrupt[] = [];
  private closeRequest: (Waiter<CloseInfo> & { promise: Promise<CloseInfo> }) | null = null;
  private closeInfo: CloseInfo | null = null;
  private disconnecting = false;
  private violation: ProtocolViolation | null = null;
  private reader: 'events' | 'sentences' | null = null;
  private reading = false;
  private assembler: SentenceAssembler | null = null;

  private constructor(
    private readonly ws: WebSocketLike,
    private readonly options: StreamOptions,
  ) {
    this.closed = this.closedWaiter.promise;
    this.maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.queue = new EventQueue<StreamEvent>(
      (event) => (event.type === 'audio' ? event.data.length : 0),
      (held) => {
        if (this.paused && held <= this.maxBuffered / 2) this.resume();
      },
    );
    ws.binaryType = 'nodebuffer';
    ws.on('open', () => {
      this.isOpen = true;
      this.opened.resolve();
    });
    ws.on('unexpected-response', (_request, response) => void this.refused(response));
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.on('error', (error) => {
      if (!this.isOpen && !this.refusing)
        this.opened.reject(new RouterConnectionError('Could not open the stream', { cause: error }));
    });
    ws.on('close', (code, reason) => this.onClose(code, new TextDecoder().decode(reason)));
  }

  /** Connects, sends the settings and resolves once the router answered `ready`. */
  static async open(
    WebSocketImpl: WebSocketConstructor,
    url: string,
    headers: Record<string, string>,
    settings: StreamSettings,
    options: StreamOptions,
  ): Promise<StreamSession> {
    options.signal?.throwIfAborted();
    // Audio does not compress: deflate would only cost CPU and memory on both ends.
    const socket = new WebSocketImpl(url, { headers, perMessageDeflate: false });
    const session = new StreamSession(socket, options);
    const { signal } = options;
    const onAbort = (): void => {
      session.opened.reject(signal?.reason);
      session.disconnect();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    void session.closed.then(() => signal?.removeEventListener('abort', onAbort));
    try {
      await session.opened.promise;
      await session.updateSettings(settings);
    } catch (error) {
      session.disconnect();
      if (signal?.aborted) throw signal.reason;
      throw error;
    }
    return session;
  }

  /**
   * Sends a delta of the reply's text, of any size (a token, a paragraph): longer deltas go as several
   * messages within the router's limit. An empty delta sends nothing.
   */
  send(text: string): void {
    if (typeof text !== 'string') throw new TypeError('text must be a string');
    this.assertWritable();
    for (const message of textMessages(text)) this.write(message);
  }

  /**
   * Sends one frame exactly as given (a text frame for a string, a binary frame for bytes), bypassing the
   * client's checks: for testing how a router answers bad input. Its `error` goes to `onError` and
   * `events()`. The router's errors name no message, so wait for that answer before calling
   * `updateSettings()`: an error arriving while a settings change waits is taken as that change's answer.
   */
  sendRaw(frame: string | Uint8Array): void {
    this.assertWritable();
    this.ws.send(frame, () => undefined);
  }

  /**
   * Ends the sentence in progress: held text is spoken now. Resolves once all audio of the text sent
   * before it has been sent (`flushed`).
   */
  flush(id?: string): Promise<FlushResult> {
    if (id !== undefined && (typeof id !== 'string' || id.length > MAX_FLUSH_ID_LENGTH)) {
      throw new RangeError(`flush id must be a string of at most ${MAX_FLUSH_ID_LENGTH} characters`);
    }
    this.assertWritable();
    const waiter = deferred<FlushResult>();
    this.pendingFlushes.push({ ...waiter, id: id ?? null, seq: this.nextSeq() });
    this.write(id === undefined ? { type: 'flush' } : { type: 'flush', id });
    this.resume();
    return waiter.promise;
  }

  /**
   * The listener barged in: the router stops speaking and drops what it has not sent. `playedMs` is how
   * much of the reply's audio was played (since the first audio after connecting or the last interrupt);
   * without it every started sentence counts as spoken. Audio already received stays readable: stop
   * playing it yourself.
   */
  interrupt(playedMs?: number): Promise<InterruptResult> {
    if (playedMs !== undefined && !(Number.isFinite(playedMs) && playedMs >= 0)) {
      throw new RangeError('playedMs must be a finite number >= 0');
    }
    this.assertWritable();
    const waiter = deferred<InterruptResult>();
    this.pendingInterrupts.push({ ...waiter, seq: this.nextSeq() });
    this.write(playedMs === undefined ? { type: 'interrupt' } : { type: 'interrupt', played_ms: playedMs });
    this.resume();
    return waiter.promise;
  }

  /**
   * New settings for the text sent after this call (the sentence in progress ends with the old ones).
   * Resolves with the resolved settings; a refusal rejects with a RouterApiError (`bad_request` naming the
   * field) and the previous settings stay in force. A missing vendor key is not checked here: the first
   * sentence that needs the vendor fails with `provider_key_missing`.
   */
  updateSettings(settings: StreamSettings): Promise<ResolvedStreamSettings> {
    if (typeof settings !== 'object' || settings === null) throw new TypeError('settings must be an object');
    this.assertWritable();
    const waiter = deferred<ResolvedStreamSettings>();
    this.pendingSettings.push(waiter);
    this.nextSeq();
    this.write({ ...settings, type: 'settings' });
    this.resume();
    return waiter.promise;
  }

  /**
   * No more text: the router speaks what is held, sends the rest of the audio and closes with 1000.
   * Resolves then; rejects with StreamClosedError if the connection ended otherwise.
   */
  close(): Promise<CloseInfo> {
    if (this.closeRequest) return this.closeRequest.promise;
    this.closeRequest = deferred<CloseInfo>();
    if (this.closeInfo) this.settleClose(this.closeInfo);
    else {
      this.write({ type: 'close' });
      this.resume();
    }
    return this.closeRequest.promise;
  }

  /**
   * Closes the socket now, without `close`: a disconnect (the router stops the reply; a sentence already
   * at the vendor finishes and is cached). Readers end quietly; pending calls reject.
   */
  disconnect(code = 1000, reason?: string): void {
    if (this.closeInfo || this.disconnecting) return;
    this.disconnecting = true;
    if (this.isOpen) this.ws.close(code, reason);
    else this.ws.terminate();
  }

  /**
   * Every message and audio frame from the router, in order, as the protocol has them (snake_case).
   * Ends after the socket closes; throws StreamClosedError if it closed abnormally.
   */
  events(): AsyncIterableIterator<StreamEvent> {
    this.claim('events');
    return this.readEvents();
  }

  /**
   * The reply's sentences in order, each with its audio, word timings and end. A failed sentence's audio
   * throws its RouterApiError and the iteration goes on. Ends after the socket closes; throws
   * StreamClosedError if it closed abnormally.
   */
  sentences(): AsyncIterableIterator<Sentence> {
    this.claim('sentences');
    this.assembler ??= new SentenceAssembler(this.queue);
    return this.readSentences(this.assembler);
  }

  private async *readEvents(): AsyncGenerator<StreamEvent> {
    try {
      for (;;) {
        const result = await this.queue.next();
        if (result.done) return;
        yield result.value;
      }
    } finally {
      this.reading = false;
    }
  }

  private async *readSentences(assembler: SentenceAssembler): AsyncGenerator<Sentence> {
    try {
      for (;;) {
        const result = await assembler.nextSentence();
        if (result.done) return;
        yield result.value;
      }
    } finally {
      this.reading = false;
    }
  }

  private claim(reader: 'events' | 'sentences'): void {
    if (this.reader !== null && this.reader !== reader) {
      throw new Error(`This session is read with ${this.reader}(); it cannot also be read with ${reader}()`);
    }
    if (this.reading) throw new Error(`This session is already being read with ${reader}()`);
    this.reader = reader;
    this.reading = true;
  }

  private assertWritable(): void {
    if (this.closeInfo) throw new StreamClosedError(this.closeInfo.code, this.closeInfo.reason);
    if (this.closeRequest || this.disconnecting) throw new Error('This session is closing');
  }

  private nextSeq(): number {
    this.seq += 1;
    return this.seq;
  }

  private write(message: ClientMessage): void {
    // A failed send also closes the socket; the close settles what waits.
    this.ws.send(JSON.stringify(message), () => undefined);
  }

  private receive(data: WebSocketData, isBinary: boolean): void {
    if (this.violation) return;
    if (isBinary) {
      this.deliver({ type: 'audio', sentence: this.started, data: frameBytes(data) });
      return;
    }
    let message: ServerMessage | null;
    try {
      message = parseServerMessage(frameText(data));
    } catch (error) {
      if (!(error instanceof ProtocolViolation)) throw error;
      this.violation = error;
      this.ws.close(PROTOCOL_ERROR, error.message.slice(0, 120));
      return;
    }
    if (message === null) return;
    switch (message.type) {
      case 'ready':
        this.sessionId = message.session_id;
        this.settings = message.settings;
        this.pendingSettings.shift()?.resolve(message.settings);
        break;
      case 'sentence_start':
        this.started = message.sentence;
        break;
      case 'flushed':
        this.flushed(message);
        break;
      case 'interrupted':
        this.interrupted(message);
        break;
      case 'error':
        if (message.sentence === undefined) {
          // The router answers each settings message with `ready` or an error naming no sentence, in order.
          // Text, flush and interrupt messages are checked here before they are sent, so such an error
          // answers a settings message if one waits (sendRaw() frames aside: see there).
          const error = new RouterApiError(message.error);
          const settings = this.pendingSettings.shift();
          if (settings) settings.reject(error);
          else this.options.onError?.(error);
        }
        break;
      default:
        break;
    }
    this.deliver(message);
  }

  private deliver(event: StreamEvent): void {
    this.options.onEvent?.(event);
    this.queue.push(event);
    if (!this.paused && this.queue.heldBytes > this.maxBuffered && !this.awaitingAnswer()) {
      this.paused = true;
      this.ws.pause();
    }
  }

  private awaitingAnswer(): boolean {
    return (
      this.pendingSettings.length > 0 ||
      this.pendingFlushes.length > 0 ||
      this.pendingInterrupts.length > 0 ||
      this.closeRequest !== null
    );
  }

  private resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.ws.resume();
  }

  private flushed(message: FlushedMessage): void {
    // By id, oldest first (ids need not be unique; null matches a flush sent without one). An answer that
    // matches nothing is late for a flush an interrupt already settled.
    const at = this.pendingFlushes.findIndex((f) => f.id === message.id);
    if (at === -1) return;
    const [flush] = this.pendingFlushes.splice(at, 1);
    flush.resolve({ id: message.id, lastSentence: message.last_sentence, interrupted: false });
  }

  private interrupted(message: InterruptedMessage): void {
    const interrupt = this.pendingInterrupts.shift();
    if (!interrupt) return;
    // Flushes sent before the interrupt whose text was dropped get no `flushed` of their own.
    while (this.pendingFlushes.length > 0 && this.pendingFlushes[0].seq < interrupt.seq) {
      const flush = this.pendingFlushes.shift() as PendingFlush;
      flush.resolve({ id: flush.id, lastSentence: null, interrupted: true });
    }
    interrupt.resolve({
      lastSpoken: message.last_spoken,
      textSpoken: message.text_spoken,
      textRemaining: message.text_remaining,
    });
  }

  private async refused(response: HandshakeResponse): Promise<void> {
    this.refusing = true;
    const chunks: Uint8Array[] = [];
    try {
      for await (const chunk of response) {
        chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array));
      }
    } catch {
      // The status alone still says what happened.
    }
    const text = new TextDecoder().decode(concatBytes(chunks));
    this.opened.reject(errorFromResponse(response.statusCode ?? 0, text));
    this.disconnecting = true;
    this.ws.terminate();
  }

  private onClose(code: number, reason: string): void {
    const info = { code, reason };
    this.closeInfo = info;
    this.paused = false;
    const clean = !this.violation && (this.disconnecting || code === 1000);
    const error = this.violation
      ? new StreamClosedError(PROTOCOL_ERROR, `the router broke the protocol: ${this.violation.message}`)
      : new StreamClosedError(code, reason);
    if (!this.isOpen && !this.refusing)
      this.opened.reject(new RouterConnectionError('Could not open the stream', { cause: error }));
    for (const waiter of this.pendingSettings.splice(0)) waiter.reject(error);
    for (const waiter of this.pendingFlushes.splice(0)) waiter.reject(error);
    for (const waiter of this.pendingInterrupts.splice(0)) waiter.reject(error);
    if (this.closeRequest) this.settleClose(info);
    this.queue.end(clean ? undefined : error);
    this.closedWaiter.resolve(info);
  }

  private settleClose(info: CloseInfo): void {
    if (info.code === 1000 && !this.violation) this.closeRequest?.resolve(info);
    else this.closeRequest?.reject(new StreamClosedError(info.code, info.reason));
  }
}
