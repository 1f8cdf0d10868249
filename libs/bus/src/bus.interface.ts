import type { EventDef, RequestDef, StreamDef } from '@router/contracts';

export type BusStatus = 'connected' | 'reconnecting' | 'closed';

export interface Subscription {
  /** The full subject on the wire (with the bus prefix). */
  readonly subject: string;
  /** Resolves once the broker knows this subscription, so requests sent after it can reach it. */
  ready(): Promise<void>;
  /** Stops new deliveries; handlers already running finish. */
  unsubscribe(): void;
}

export interface RequestOptions {
  /** Reply deadline; defaults to the bus's `requestTimeoutMs`. */
  timeoutMs?: number;
}

export interface SubscribeOptions {
  /** Subscribers in one queue group share the events: each goes to one of them. */
  queue?: string;
}

export interface ServeOptions {
  /** Queue group: replicas in one group share the work, each request goes to one. Defaults to the subject. */
  queue?: string;
}

export interface StreamRequestOptions {
  /** Chunks the server may send ahead of the consumer (flow-control credit). Default 16. */
  window?: number;
  /** Aborting cancels the stream: the server's `aborted` fires and iteration throws `bus_cancelled`. */
  signal?: AbortSignal;
  /**
   * Longest wait for the server's next frame while nothing is buffered here; a dead or hung server
   * fails the stream with `bus_timeout` after this. Defaults to the bus's `streamTimeoutMs` (on NATS, where a
   * live server's process sends a heartbeat every quarter of the liveness interval, to that interval when it
   * is shorter).
   */
  timeoutMs?: number;
}

/**
 * The requester's view of a streamed reply: iterate it for the binary chunks (each as the server wrote it).
 * Iteration ends when the server ends and throws the server's error (a BusRemoteError) after the chunks
 * sent before it. Leaving the loop early (break, throw) cancels the stream on the server.
 */
export interface BusStream<Header, Trailer> extends AsyncIterable<Uint8Array> {
  /** The server's header, sent before any chunk; rejects if the stream fails first. */
  header(): Promise<Header>;
  /** The server's trailer, sent after the last chunk; rejects if the stream fails or is cancelled. */
  trailer(): Promise<Trailer>;
  /** Stops the stream; buffered chunks are dropped and the server's `aborted` fires. Idempotent. */
  cancel(): void;
}

/** The server's side of one streamed reply. */
export interface StreamSink<Header, Trailer> {
  /** Fires when the requester cancels, goes silent or the bus closes; stop producing. */
  readonly aborted: AbortSignal;
  /** Sends the header (checked); at most once, before any chunk. Sent empty on the first write if skipped. */
  header(header: Header): void;
  /**
   * Queues one chunk; resolves once it is sent, which waits for the requester's credit when the window is
   * full. Rejects once the stream is aborted. Chunks keep their boundaries; big ones travel split.
   */
  write(chunk: Uint8Array): Promise<void>;
  /** Sends the trailer (checked) after every queued chunk; resolves once sent. */
  end(...trailer: undefined extends Trailer ? [trailer?: Trailer] : [trailer: Trailer]): Promise<void>;
  /** Fails the stream now: queued unsent chunks are dropped, the requester throws this error's code. */
  error(err: unknown): void;
}

export type RequestHandler<Req, Res> = (request: Req) => Res | Promise<Res>;
export type StreamHandler<Req, Header, Trailer> = (
  request: Req,
  sink: StreamSink<Header, Trailer>,
) => void | Promise<void>;
export type EventHandler<E> = (event: E) => void | Promise<void>;

/**
 * Request/reply, streamed replies and broadcast events between the router's processes. Payloads are
 * checked against the contract at both ends: before sending and after receiving.
 */
export interface Bus {
  request<Req, Res>(def: RequestDef<Req, Res>, payload: Req, options?: RequestOptions): Promise<Res>;
  serve<Req, Res>(
    def: RequestDef<Req, Res>,
    handler: RequestHandler<Req, Res>,
    options?: ServeOptions,
  ): Subscription;

  /** Throws a PayloadCheckError at once if the request does not match the contract. */
  requestStream<Req, Header, Trailer>(
    def: StreamDef<Req, Header, Trailer>,
    payload: Req,
    options?: StreamRequestOptions,
  ): BusStream<Header, Trailer>;
  serveStream<Req, Header, Trailer>(
    def: StreamDef<Req, Header, Trailer>,
    handler: StreamHandler<Req, Header, Trailer>,
    options?: ServeOptions,
  ): Subscription;

  /** Resolves once the event is handed to the transport; delivery is fire-and-forget. */
  publish<E>(def: EventDef<E>, payload: E): Promise<void>;
  /**
   * Every subscriber gets every event, except that subscribers sharing a `queue` get each event once
   * between them (replicas of one service counting events, say).
   */
  subscribe<E>(def: EventDef<E>, handler: EventHandler<E>, options?: SubscribeOptions): Subscription;

  status(): BusStatus;
  /** Calls `listener` on every change of status (a reconnect, say); returns what stops it. */
  onStatusChange(listener: (status: BusStatus) => void): () => void;
  /** Stops serving, fails open streams with `bus_closed`, waits briefly for running handlers, disconnects. */
  close(): Promise<void>;
}
