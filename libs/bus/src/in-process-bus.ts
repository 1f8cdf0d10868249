import { checkPayload, jsonCodec, type EventDef, type RequestDef, type StreamDef } from '@router/contracts';
import { BusError, BusErrorCode, type BusErrorJSON } from './bus.error';
import type {
  Bus,
  BusStatus,
  BusStream,
  EventHandler,
  RequestHandler,
  RequestOptions,
  ServeOptions,
  SubscribeOptions,
  StreamHandler,
  StreamRequestOptions,
  Subscription,
} from './bus.interface';
import {
  clampWindow,
  HandlerTracker,
  prefixed,
  resolveCommonOptions,
  type MemoryBusOptions,
  type ResolvedCommonOptions,
} from './bus.options';
import { answerRequest, encodeRequest, readReply, type EncodedReply } from './request.runner';
import { StreamReceiver } from './stream.receiver';
import { StreamSender } from './stream.sender';

/** The requester side a served stream writes into. */
interface ReceiverEnd {
  onHeader(raw: unknown): void;
  onChunk(bytes: Uint8Array): void;
  onEnd(raw: unknown): void;
  onError(json: unknown): void;
}

interface RequestEntry {
  kind: 'request';
  queue: string;
  answer(data: Uint8Array): Promise<EncodedReply>;
}
interface StreamEntry {
  kind: 'stream';
  queue: string;
  open(data: Uint8Array, window: number, to: ReceiverEnd): StreamSender<unknown, unknown>;
}
interface EventEntry {
  kind: 'event';
  queue: string | undefined;
  deliver(data: Uint8Array): void;
}
type Entry = RequestEntry | StreamEntry | EventEntry;

/** JSON travels as bytes even in one process, so standalone mode sees exactly what NATS would carry. */
function roundTrip(value: unknown, subject: string): unknown {
  return jsonCodec.decode(jsonCodec.encode(value), subject, 'reply');
}

/**
 * The bus for the single-process (standalone) mode, with NATS's semantics: queue groups pick one handler
 * per group, events reach every subscriber, payloads are encoded and checked at both ends, streamed
 * replies use the same credit window, cancel and silence timeout.
 */
export class InProcessBus implements Bus {
  private readonly options: ResolvedCommonOptions;
  private readonly entries = new Map<string, Entry[]>();
  private readonly turn = new Map<string, number>();
  private readonly receivers = new Set<StreamReceiver<unknown, unknown>>();
  private readonly senders = new Set<StreamSender<unknown, unknown>>();
  private readonly tracker = new HandlerTracker();
  private closed = false;
  private readonly statusListeners = new Set<(status: BusStatus) => void>();

  constructor(options: Omit<MemoryBusOptions, 'kind'> = {}) {
    this.options = resolveCommonOptions(options);
  }

  status(): BusStatus {
    return this.closed ? 'closed' : 'connected';
  }

  /** In one process the bus never disconnects: the only change is close(). */
  onStatusChange(listener: (status: BusStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  async request<Req, Res>(
    def: RequestDef<Req, Res>,
    payload: Req,
    options: RequestOptions = {},
  ): Promise<Res> {
    this.assertOpen();
    const data = encodeRequest(def, payload);
    const subject = prefixed(this.options.prefix, def.subject);
    const picks = this.pick(subject, 'request');
    if (picks.length === 0) throw new BusError(BusErrorCode.noResponders, `no responders on ${def.subject}`);
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs;
    // Like NATS: every queue group answers, the first reply wins.
    const replies = picks.map((entry) =>
      this.tracker.track(Promise.resolve().then(() => entry.answer(data))),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new BusError(BusErrorCode.timeout, `no reply on ${def.subject} within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return readReply(def, await Promise.race([...replies, timeout]));
    } finally {
      clearTimeout(timer);
    }
  }

  serve<Req, Res>(
    def: RequestDef<Req, Res>,
    handler: RequestHandler<Req, Res>,
    options: ServeOptions = {},
  ): Subscription {
    const subject = prefixed(this.options.prefix, def.subject);
    return this.add(subject, {
      kind: 'request',
      queue: options.queue ?? subject,
      answer: (data) => answerRequest(def, handler, data),
    });
  }

  requestStream<Req, Header, Trailer>(
    def: StreamDef<Req, Header, Trailer>,
    payload: Req,
    options: StreamRequestOptions = {},
  ): BusStream<Header, Trailer> {
    this.assertOpen();
    const data = jsonCodec.encode(checkPayload(def.subject, 'request', def.request, payload));
    const window = clampWindow(options.window ?? this.options.streamWindow);
    const receiver = new StreamReceiver<Header, Trailer>(def, {
      window,
      timeoutMs: options.timeoutMs ?? this.options.streamTimeoutMs,
      signal: options.signal,
    });
    const generic = receiver as StreamReceiver<unknown, unknown>;
    let sender: StreamSender<unknown, unknown> | undefined;
    this.receivers.add(generic);
    receiver.attach({
      // Requester → server goes through a microtask so a consumer's read never re-enters the sender's loop.
      credit: (chunks) => queueMicrotask(() => sender?.grant(chunks)),
      cancel: () =>
        queueMicrotask(() =>
          sender?.abort(new BusError(BusErrorCode.cancelled, `requester cancelled ${def.subject}`)),
        ),
      dispose: () => this.receivers.delete(generic),
    });
    if (!receiver.isOpen) return receiver;
    const [pick] = this.pick(prefixed(this.options.prefix, def.subject), 'stream');
    if (!pick) {
      receiver.fail(new BusError(BusErrorCode.noResponders, `no responders on ${def.subject}`), false);
      return receiver;
    }
    queueMicrotask(() => {
      if (!receiver.isOpen) return;
      sender = pick.open(data, window, receiver);
    });
    return receiver;
  }

  serveStream<Req, Header, Trailer>(
    def: StreamDef<Req, Header, Trailer>,
    handler: StreamHandler<Req, Header, Trailer>,
    options: ServeOptions = {},
  ): Subscription {
    const subject = prefixed(this.options.prefix, def.subject);
    return this.add(subject, {
      kind: 'stream',
      queue: options.queue ?? subject,
      open: (data, window, to) => {
        const sender = new StreamSender<Header, Trailer>(def, window, {
          header: (value) => to.onHeader(roundTrip(value, def.subject)),
          // A copy, as NATS would make: the writer may reuse its buffer once write() resolves.
          chunk: (bytes) => to.onChunk(bytes.slice()),
          end: (value) => to.onEnd(roundTrip(value, def.subject)),
          error: (json: BusErrorJSON) => to.onError(roundTrip(json, def.subject)),
          dispose: () => this.senders.delete(generic),
        });
        const generic = sender as StreamSender<unknown, unknown>;
        this.senders.add(generic);
        let request: Req;
        try {
          request = checkPayload(
            def.subject,
            'request',
            def.request,
            jsonCodec.decode(data, def.subject, 'request'),
          );
        } catch (err) {
          sender.error(err);
          return generic;
        }
        void this.tracker.track(sender.run(handler, request));
        return generic;
      },
    });
  }

  async publish<E>(def: EventDef<E>, payload: E): Promise<void> {
    this.assertOpen();
    const data = jsonCodec.encode(checkPayload(def.subject, 'event', def.payload, payload));
    const queued = new Map<string, EventEntry[]>();
    for (const entry of this.entries.get(prefixed(this.options.prefix, def.subject)) ?? []) {
      if (entry.kind !== 'event') continue;
      if (entry.queue === undefined) entry.deliver(data);
      else queued.set(entry.queue, [...(queued.get(entry.queue) ?? []), entry]);
    }
    // As NATS does: each queue group gets the event once, at one of its members.
    for (const members of queued.values()) members[Math.floor(Math.random() * members.length)]?.deliver(data);
    return Promise.resolve();
  }

  subscribe<E>(def: EventDef<E>, handler: EventHandler<E>, options: SubscribeOptions = {}): Subscription {
    const subject = prefixed(this.options.prefix, def.subject);
    // One chain per subscriber keeps its events in publish order.
    let chain: Promise<void> = Promise.resolve();
    return this.add(subject, {
      kind: 'event',
      queue: options.queue,
      deliver: (data) => {
        chain = this.tracker.track(
          chain.then(async () => {
            try {
              await handler(
                checkPayload(def.subject, 'event', def.payload, jsonCodec.decode(data, def.subject, 'event')),
              );
            } catch (err) {
              this.options.onHandlerError(err, subject);
            }
          }),
        );
      },
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.statusListeners) listener('closed');
    this.entries.clear();
    const reason = new BusError(BusErrorCode.closed, 'bus closed');
    for (const receiver of [...this.receivers]) receiver.fail(reason, true);
    for (const sender of [...this.senders]) sender.abort(reason, true);
    await this.tracker.settle(this.options.closeGraceMs);
  }

  private assertOpen(): void {
    if (this.closed) throw new BusError(BusErrorCode.closed, 'bus closed');
  }

  private add(subject: string, entry: Entry): Subscription {
    this.assertOpen();
    const list = this.entries.get(subject) ?? [];
    list.push(entry);
    this.entries.set(subject, list);
    return {
      subject,
      ready: () => Promise.resolve(),
      unsubscribe: () => {
        const current = this.entries.get(subject);
        if (!current) return;
        const index = current.indexOf(entry);
        if (index >= 0) current.splice(index, 1);
        if (current.length === 0) this.entries.delete(subject);
      },
    };
  }

  /** One entry of the given kind per queue group, taking turns within a group. */
  private pick(subject: string, kind: 'request'): RequestEntry[];
  private pick(subject: string, kind: 'stream'): StreamEntry[];
  private pick(subject: string, kind: 'request' | 'stream'): Array<RequestEntry | StreamEntry> {
    const groups = new Map<string, Array<RequestEntry | StreamEntry>>();
    for (const entry of this.entries.get(subject) ?? []) {
      if (entry.kind === 'event' || entry.kind !== kind) continue;
      const group = groups.get(entry.queue) ?? [];
      group.push(entry);
      groups.set(entry.queue, group);
    }
    const picks: Array<RequestEntry | StreamEntry> = [];
    for (const [queue, group] of groups) {
      const key = `${subject}\u0000${queue}`;
      const turn = this.turn.get(key) ?? 0;
      this.turn.set(key, turn + 1);
      const chosen = group[turn % group.length];
      if (chosen) picks.push(chosen);
    }
    return picks;
  }
}
