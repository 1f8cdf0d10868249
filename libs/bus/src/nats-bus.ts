import { checkPayload, jsonCodec, type EventDef, type RequestDef, type StreamDef } from '@router/contracts';
import {
  connect,
  createInbox,
  DebugEvents,
  ErrorCode,
  Events,
  headers as natsHeaders,
  NatsError,
  type Msg,
  type NatsConnection,
  type Subscription as NatsSubscription,
} from 'nats';
import { BusError, BusErrorCode } from './bus.error';
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
  type NatsBusOptions,
  type ResolvedCommonOptions,
} from './bus.options';
import { answerRequest, encodeError, encodeRequest, readReply } from './request.runner';
import {
  decodeFrame,
  encodeFrame,
  FLAG_ALIVE,
  FLAG_MORE,
  FLAG_PEER,
  FRAME_HEADER_BYTES,
  FrameKind,
  type Frame,
} from './stream-frame.codec';
import { StreamReceiver } from './stream.receiver';
import { StreamSender } from './stream.sender';

/** Marks a request/reply answer whose body is a BusErrorJSON rather than the reply. */
const ERROR_HEADER = 'Bus-Error';

interface SubscriptionEntry {
  subject: string;
  queue: string | undefined;
  onMessage(msg: Msg): void;
  sub?: NatsSubscription;
}

/** Requester-side bookkeeping of one stream (its frames arrive on `<inbox>.r<n>`). */
interface RequesterSession {
  receiver: StreamReceiver<unknown, unknown>;
  subject: string;
  /** The serving process's control subject, learnt from its first frame; credit and cancel go there. */
  control?: string;
  nextSeqIn: number;
  nextSeqOut: number;
  lastSentAt: number;
  /** Fragments of a chunk bigger than one frame. */
  parts: Uint8Array[];
  /** The serving process, once its first frame said it sends heartbeats. */
  peer?: Peer;
  /** Per-stream pings, for a server of an older release that judges each stream alone. */
  pingTimer?: NodeJS.Timeout;
}

/** Server-side bookkeeping of one stream (its control frames arrive on `<inbox>.s<n>`). */
interface ServerSession {
  sender: StreamSender<unknown, unknown>;
  nextSeqIn: number;
  peer: Peer;
  /** Per-stream alive frames, for a requester of an older release that reads no heartbeats. */
  aliveTimer: NodeJS.Timeout | undefined;
}

/**
 * A process at the other end of some of this process's streams. Liveness is judged per process, not per
 * stream: every tick each process sends one heartbeat (`<inbox>.hb`) to each peer, anything heard from a peer
 * counts for all its streams, and a stream served here is given up only when its requester's process has
 * been silent for the liveness interval, however long its consumer has held back credit
 * (docs/reliability.md, "Bus liveness").
 */
interface Peer {
  /** Its inbox; for a requester of an older release (no heartbeats), its one stream's reply subject. */
  key: string;
  /** It sends and reads heartbeats. */
  heartbeats: boolean;
  /** The silence after which the streams it requested from here are given up. */
  livenessMs: number;
  /** This process's streams with it: requester sessions (`r…`) and server sessions (`s…`). */
  streams: Set<string>;
  lastHeardAt: number;
  silenceTimer: NodeJS.Timeout;
  /** Judging its silence was put off once because this process itself had been stalled. */
  graced: boolean;
}

function concat(parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

/**
 * The bus over NATS core. Request/reply and events are one JSON message each. A streamed reply is a
 * conversation of binary frames (see stream-frame.codec.ts) between the requester's inbox and the
 * server's: one wildcard inbox subscription per process carries every stream, credit-based flow control
 * keeps at most `window` chunks in flight, chunks beyond one NATS message are split, and liveness is judged
 * per process (see Peer): a stream is given up when the process at its other end goes silent, never because
 * its consumer holds back credit.
 */
export class NatsBus implements Bus {
  private readonly options: ResolvedCommonOptions;
  private readonly servers: string[];
  private readonly livenessMs: number;
  private readonly reconnectDelayMs: number;
  private nc: NatsConnection | undefined;
  private state: BusStatus = 'reconnecting';
  private closed = false;
  private readonly inbox = createInbox();
  private nextId = 0;
  private maxFrameBytes = 0;
  private readonly entries = new Set<SubscriptionEntry>();
  private readonly requesters = new Map<string, RequesterSession>();
  private readonly serverSessions = new Map<string, ServerSession>();
  private readonly peers = new Map<string, Peer>();
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private heartbeatTickMs = 0;
  private readonly tracker = new HandlerTracker();
  private readonly connectedWaiters = new Set<(nc: NatsConnection | undefined) => void>();
  private retryTimer: NodeJS.Timeout | undefined;
  private wakeRetry: (() => void) | undefined;
  private readonly statusListeners = new Set<(status: BusStatus) => void>();

  constructor(private readonly natsOptions: Omit<NatsBusOptions, 'kind'>) {
    this.options = resolveCommonOptions(natsOptions);
    this.servers = Array.isArray(natsOptions.url) ? natsOptions.url : [natsOptions.url];
    this.livenessMs = natsOptions.streamLivenessMs ?? 1500;
    this.reconnectDelayMs = natsOptions.reconnectDelayMs ?? 250;
    void this.connectLoop();
  }

  status(): BusStatus {
    return this.state;
  }

  onStatusChange(listener: (status: BusStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private setState(state: BusStatus): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.statusListeners) listener(state);
  }

  // ---- request/reply ----

  async request<Req, Res>(
    def: RequestDef<Req, Res>,
    payload: Req,
    options: RequestOptions = {},
  ): Promise<Res> {
    this.assertOpen();
    const data = encodeRequest(def, payload);
    const timeoutMs = options.timeoutMs ?? this.options.requestTimeoutMs;
    const started = Date.now();
    const nc = await this.connection(timeoutMs);
    let reply: Msg;
    try {
      reply = await nc.request(this.subjectOf(def.subject), data, {
        timeout: Math.max(1, timeoutMs - (Date.now() - started)),
      });
    } catch (err) {
      throw this.mapNatsError(err, def.subject, timeoutMs);
    }
    return readReply(def, { data: reply.data, failed: reply.headers?.get(ERROR_HEADER) === '1' });
  }

  serve<Req, Res>(
    def: RequestDef<Req, Res>,
    handler: RequestHandler<Req, Res>,
    options: ServeOptions = {},
  ): Subscription {
    const subject = this.subjectOf(def.subject);
    return this.addSubscription(subject, options.queue ?? subject, (msg) => {
      if (!msg.reply) return;
      void this.tracker.track(
        answerRequest(def, handler, msg.data).then((reply) => {
          try {
            this.respond(msg, reply.data, reply.failed);
          } catch (err) {
            // Typically a reply over the broker's size limit: tell the requester instead of letting it time out.
            const failure = new BusError(
              BusErrorCode.transport,
              `reply on ${def.subject} not sent: ${errorMessage(err)}`,
            );
            try {
              this.respond(msg, encodeError(failure), true);
            } catch (again) {
              this.options.onHandlerError(again, subject);
            }
          }
        }),
      );
    });
  }

  // ---- events ----

  async publish<E>(def: EventDef<E>, payload: E): Promise<void> {
    this.assertOpen();
    const data = jsonCodec.encode(checkPayload(def.subject, 'event', def.payload, payload));
    const nc = await this.connection(this.options.requestTimeoutMs);
    try {
      nc.publish(this.subjectOf(def.subject), data);
    } catch (err) {
      throw this.mapNatsError(err, def.subject, 0);
    }
  }

  subscribe<E>(def: EventDef<E>, handler: EventHandler<E>, options: SubscribeOptions = {}): Subscription {
    const subject = this.subjectOf(def.subject);
    // One chain per subscriber keeps its events in arrival order.
    let chain: Promise<void> = Promise.resolve();
    return this.addSubscription(subject, options.queue, (msg) => {
      chain = this.tracker.track(
        chain.then(async () => {
          try {
            const raw = jsonCodec.decode(msg.data, def.subject, 'event');
            await handler(checkPayload(def.subject, 'event', def.payload, raw));
          } catch (err) {
            this.options.onHandlerError(err, subject);
          }
        }),
      );
    });
  }

  // ---- streamed replies: requester side ----

  requestStream<Req, Header, Trailer>(
    def: StreamDef<Req, Header, Trailer>,
    payload: Req,
    options: StreamRequestOptions = {},
  ): BusStream<Header, Trailer> {
    this.assertOpen();
    const data = jsonCodec.encode(checkPayload(def.subject, 'request', def.request, payload));
    const window = clampWindow(options.window ?? this.options.streamWindow);
    // A live server sends something at least every third of the liveness interval, so a longer silence is a
    // server gone (killed, cut off), not a slow one.
    const timeoutMs = options.timeoutMs ?? Math.min(this.options.streamTimeoutMs, this.livenessMs);
    const receiver = new StreamReceiver<Header, Trailer>(def, {
      window,
      timeoutMs,
      // A server sends its first frame within a quarter of the interval, unless it is busy starting up (a
      // cold process compiling its first queries): twice the interval for that one.
      firstFrameTimeoutMs: options.timeoutMs ?? Math.min(this.options.streamTimeoutMs, 2 * this.livenessMs),
      signal: options.signal,
    });
    const id = `r${++this.nextId}`;
    const session: RequesterSession = {
      receiver,
      subject: def.subject,
      nextSeqIn: 0,
      nextSeqOut: 0,
      lastSentAt: Date.now(),
      parts: [],
    };
    this.requesters.set(id, session);
    receiver.attach({
      credit: (chunks) => this.sendControl(session, FrameKind.Credit, chunks),
      // Before the server's first frame there is nobody to tell; a late one is answered with a cancel (onRequesterFrame).
      cancel: () => this.sendControl(session, FrameKind.Cancel, 0),
      dispose: () => {
        this.requesters.delete(id);
        if (session.pingTimer) clearInterval(session.pingTimer);
        if (session.peer) this.leavePeer(session.peer, id);
      },
    });
    if (receiver.isOpen) void this.openStream(session, id, def.subject, data, window, timeoutMs);
    return receiver;
  }

  private async openStream(
    session: RequesterSession,
    id: string,
    subject: string,
    data: Uint8Array,
    window: number,
    timeoutMs: number,
  ): Promise<void> {
    let nc: NatsConnection;
    try {
      nc = await this.connection(timeoutMs);
    } catch (err) {
      session.receiver.fail(err instanceof Error ? err : new Error(String(err)), false);
      return;
    }
    if (!session.receiver.isOpen) return;
    try {
      const open = encodeFrame(FrameKind.Open, session.nextSeqOut++, data, {
        value: window,
        value2: this.livenessMs,
        flags: FLAG_ALIVE | FLAG_PEER,
      });
      nc.publish(this.subjectOf(subject), open, { reply: `${this.inbox}.${id}` });
      session.lastSentAt = Date.now();
    } catch (err) {
      session.receiver.fail(this.mapNatsError(err, subject, 0), false);
    }
  }

  private onRequesterFrame(id: string, msg: Msg): void {
    const session = this.requesters.get(id);
    if (msg.data.length === 0 && msg.headers?.code === 503) {
      session?.receiver.fail(new BusError(BusErrorCode.noResponders, 'no responders for a stream'), false);
      return;
    }
    const frame = decodeFrame(msg.data);
    if (!session) {
      // A server that began after we gave up (cancelled before its first frame, or a second queue group).
      if (frame?.seq === 0 && msg.reply) this.publishQuietly(msg.reply, encodeFrame(FrameKind.Cancel, 0));
      return;
    }
    const receiver = session.receiver;
    if (!frame) return receiver.fail(new BusError(BusErrorCode.protocol, 'unreadable stream frame'), true);
    if (session.control === undefined) {
      // The server's first frame (its header or its error) names its control subject.
      if (frame.seq !== 0 || !msg.reply) {
        return receiver.fail(
          new BusError(BusErrorCode.protocol, 'stream did not begin with its first frame'),
          true,
        );
      }
      session.control = msg.reply;
      if (frame.flags & FLAG_PEER) session.peer = this.joinPeer(peerOf(msg.reply), id, true, this.livenessMs);
      else this.startPings(session);
    } else if (msg.reply !== session.control) {
      if (frame.seq === 0 && msg.reply) this.publishQuietly(msg.reply, encodeFrame(FrameKind.Cancel, 0));
      return;
    }
    if (session.peer) this.heard(session.peer);
    if (frame.seq !== session.nextSeqIn) {
      return receiver.fail(
        new BusError(BusErrorCode.protocol, `stream frame ${session.nextSeqIn} lost (got ${frame.seq})`),
        true,
      );
    }
    session.nextSeqIn += 1;
    this.dispatchToReceiver(session, frame);
  }

  private dispatchToReceiver(session: RequesterSession, frame: Frame): void {
    const receiver = session.receiver;
    const subject = session.subject;
    try {
      switch (frame.kind) {
        case FrameKind.Header:
          return receiver.onHeader(jsonCodec.decode(frame.payload, subject, 'header'));
        case FrameKind.Chunk:
          if (frame.flags & FLAG_MORE) {
            session.parts.push(frame.payload);
            return receiver.onActivity();
          }
          if (session.parts.length > 0) {
            session.parts.push(frame.payload);
            const whole = concat(session.parts);
            session.parts = [];
            return receiver.onChunk(whole);
          }
          return receiver.onChunk(frame.payload);
        case FrameKind.End:
          return receiver.onEnd(jsonCodec.decode(frame.payload, subject, 'trailer'));
        case FrameKind.Error:
          return receiver.onError(jsonCodec.decode(frame.payload, subject, 'reply'));
        case FrameKind.Alive:
          return receiver.onActivity();
        default:
          return receiver.fail(
            new BusError(BusErrorCode.protocol, `unexpected frame kind ${frame.kind}`),
            true,
          );
      }
    } catch (err) {
      receiver.fail(err instanceof Error ? err : new Error(String(err)), true);
    }
  }

  private sendControl(session: RequesterSession, kind: FrameKind, value: number): void {
    if (!session.control || !this.nc) return;
    try {
      this.nc.publish(session.control, encodeFrame(kind, session.nextSeqOut++, undefined, { value }));
      session.lastSentAt = Date.now();
    } catch (err) {
      if (kind !== FrameKind.Cancel) session.receiver.fail(this.mapNatsError(err, 'stream', 0), false);
    }
  }

  /**
   * For a server of an older release, which judges each stream by its own control frames: keeps it from giving
   * up on us while the consumer is slow and no credit is due.
   */
  private startPings(session: RequesterSession): void {
    const tick = keepAliveTick(this.livenessMs);
    session.pingTimer = setInterval(() => {
      if (Date.now() - session.lastSentAt >= tick / 2) this.sendControl(session, FrameKind.Ping, 0);
    }, tick);
    session.pingTimer.unref();
  }

  // ---- streamed replies: server side ----

  serveStream<Req, Header, Trailer>(
    def: StreamDef<Req, Header, Trailer>,
    handler: StreamHandler<Req, Header, Trailer>,
    options: ServeOptions = {},
  ): Subscription {
    const subject = this.subjectOf(def.subject);
    return this.addSubscription(subject, options.queue ?? subject, (msg) =>
      this.acceptStream(def, handler, msg),
    );
  }

  private acceptStream<Req, Header, Trailer>(
    def: StreamDef<Req, Header, Trailer>,
    handler: StreamHandler<Req, Header, Trailer>,
    msg: Msg,
  ): void {
    const nc = this.nc;
    const requester = msg.reply;
    if (!nc || !requester) return;
    const frame = decodeFrame(msg.data);
    const id = `s${++this.nextId}`;
    const control = `${this.inbox}.${id}`;
    const flags = frame?.flags ?? 0;
    const livenessMs = frame?.value2 || this.livenessMs;
    const heartbeats = (flags & FLAG_PEER) !== 0;
    const peer = this.joinPeer(heartbeats ? peerOf(requester) : requester, id, heartbeats, livenessMs);
    let seq = 0;
    let lastSentAt = Date.now();
    const send = (kind: FrameKind, payload?: Uint8Array, frameFlags = 0): void => {
      nc.publish(requester, encodeFrame(kind, seq++, payload, { flags: frameFlags }), { reply: control });
      lastSentAt = Date.now();
      // An older requester can ping only once our first frame has told it where: its silence counts from there.
      if (seq === 1 && !peer.heartbeats) this.heard(peer);
    };
    const fragmentBytes = this.frameBytes(nc) - FRAME_HEADER_BYTES;
    const sender = new StreamSender<Header, Trailer>(def, clampWindow(frame?.value ?? 1), {
      header: (value) => send(FrameKind.Header, jsonCodec.encode(value)),
      chunk: (bytes) => {
        // Chunks keep their boundaries: the requester joins fragments flagged "more" back into one chunk.
        let offset = 0;
        for (; bytes.length - offset > fragmentBytes; offset += fragmentBytes) {
          send(FrameKind.Chunk, bytes.subarray(offset, offset + fragmentBytes), FLAG_MORE);
        }
        send(FrameKind.Chunk, bytes.subarray(offset));
      },
      end: (value) => send(FrameKind.End, jsonCodec.encode(value)),
      error: (json) => {
        let payload: Uint8Array;
        try {
          payload = jsonCodec.encode(json);
        } catch {
          payload = jsonCodec.encode({ code: json.code, message: json.message });
        }
        send(FrameKind.Error, payload);
      },
      dispose: () => {
        const session = this.serverSessions.get(id);
        if (session) clearInterval(session.aliveTimer);
        this.serverSessions.delete(id);
        this.leavePeer(peer, id);
      },
    });
    const generic = sender as StreamSender<unknown, unknown>;
    // Per-stream alive frames only for an older requester that reads them (FLAG_ALIVE) but no heartbeats; one
    // older still would take them for a broken stream. The first may be the stream's first frame: it names the
    // control subject like a header would.
    const tick = keepAliveTick(livenessMs);
    const aliveTimer =
      heartbeats || (flags & FLAG_ALIVE) === 0
        ? undefined
        : setInterval(() => {
            if (Date.now() - lastSentAt < tick / 2 || sender.isFinished) return;
            try {
              send(FrameKind.Alive);
            } catch {
              // The connection is gone; the requester's own silence timer tells it.
            }
          }, tick);
    aliveTimer?.unref();
    // The open frame was the requester's frame 0; its control frames continue from 1.
    this.serverSessions.set(id, { sender: generic, nextSeqIn: 1, peer, aliveTimer });
    if (!frame || frame.kind !== FrameKind.Open || frame.seq !== 0) {
      sender.error(new BusError(BusErrorCode.protocol, `not a stream request on ${def.subject}`));
      return;
    }
    if (heartbeats) {
      // At once, before the handler's header: the requester learns which process serves it, and from then on
      // that process's heartbeats are its stream's sign of life.
      try {
        send(FrameKind.Alive, undefined, FLAG_PEER);
      } catch (err) {
        sender.abort(this.mapNatsError(err, def.subject, 0));
        return;
      }
    }
    let request: Req;
    try {
      request = checkPayload(
        def.subject,
        'request',
        def.request,
        jsonCodec.decode(frame.payload, def.subject, 'request'),
      );
    } catch (err) {
      sender.error(err);
      return;
    }
    void this.tracker.track(sender.run(handler, request));
  }

  private onServerControl(id: string, msg: Msg): void {
    const session = this.serverSessions.get(id);
    if (!session) return;
    const frame = decodeFrame(msg.data);
    const sender = session.sender;
    if (frame?.kind === FrameKind.Cancel) {
      // Accepted out of sequence: a cancel sent before our start was seen is still a cancel.
      sender.abort(new BusError(BusErrorCode.cancelled, 'requester cancelled the stream'));
      return;
    }
    if (!frame || frame.seq !== session.nextSeqIn) {
      sender.abort(new BusError(BusErrorCode.protocol, 'control frame lost or unreadable'), true);
      return;
    }
    session.nextSeqIn += 1;
    this.heard(session.peer);
    if (frame.kind === FrameKind.Credit) sender.grant(frame.value);
  }

  // ---- streamed replies: liveness per process ----

  private joinPeer(key: string, id: string, heartbeats: boolean, livenessMs: number): Peer {
    let peer = this.peers.get(key);
    if (!peer) {
      const created: Peer = {
        key,
        heartbeats,
        livenessMs,
        streams: new Set(),
        lastHeardAt: Date.now(),
        silenceTimer: setTimeout(() => this.onPeerSilent(created), livenessMs),
        graced: false,
      };
      created.silenceTimer.unref();
      peer = created;
      this.peers.set(key, peer);
    } else if (livenessMs < peer.livenessMs) {
      peer.livenessMs = livenessMs;
      this.armSilence(peer, livenessMs);
    }
    peer.streams.add(id);
    // A stream's first frame from it (the open, or its first answer) is news of it too.
    this.heard(peer);
    if (heartbeats) this.startHeartbeats(Math.min(livenessMs, this.livenessMs));
    return peer;
  }

  private leavePeer(peer: Peer, id: string): void {
    peer.streams.delete(id);
    if (peer.streams.size > 0 || this.peers.get(peer.key) !== peer) return;
    clearTimeout(peer.silenceTimer);
    this.peers.delete(peer.key);
    if (this.peers.size === 0) this.stopHeartbeats();
  }

  private heard(peer: Peer): void {
    peer.lastHeardAt = Date.now();
    if (!peer.graced) {
      peer.silenceTimer.refresh();
      return;
    }
    peer.graced = false;
    this.armSilence(peer, peer.livenessMs);
  }

  private armSilence(peer: Peer, ms: number): void {
    clearTimeout(peer.silenceTimer);
    peer.silenceTimer = setTimeout(() => this.onPeerSilent(peer), ms);
    peer.silenceTimer.unref();
  }

  private onPeerSilent(peer: Peer): void {
    // Timers run before this turn's I/O is read: judge only once frames waiting unread have had their turn.
    setImmediate(() => {
      if (this.peers.get(peer.key) !== peer) return;
      const silentMs = Date.now() - peer.lastHeardAt;
      // A timer may fire before the interval has passed by the wall clock (it counts from the event loop's
      // cached time, which a busy turn leaves behind): judge again when it has, never not at all.
      if (silentMs < peer.livenessMs) return this.armSilence(peer, peer.livenessMs - silentMs);
      const tick = keepAliveTick(peer.livenessMs);
      if (!peer.graced && silentMs - peer.livenessMs > tick) {
        // This judgement comes more than a tick late: this process itself was stalled (a loaded machine), and
        // the peer's heartbeats of that time may still be on their way. One tick more, once.
        peer.graced = true;
        this.armSilence(peer, tick);
        return;
      }
      const reason = new BusError(
        BusErrorCode.timeout,
        `requesting process silent for ${peer.livenessMs} ms`,
      );
      for (const id of [...peer.streams]) this.serverSessions.get(id)?.sender.abort(reason, true);
    });
  }

  /** A peer's heartbeat: it is alive, and so is every stream it serves for us. */
  private onHeartbeat(msg: Msg): void {
    const peer = msg.reply ? this.peers.get(msg.reply) : undefined;
    if (!peer) return;
    this.heard(peer);
    for (const id of peer.streams) this.requesters.get(id)?.receiver.onActivity();
  }

  /** One timer per process, ticking at the shortest liveness any peer asked for. */
  private startHeartbeats(livenessMs: number): void {
    const tick = keepAliveTick(livenessMs);
    if (this.heartbeatTimer && this.heartbeatTickMs <= tick) return;
    clearInterval(this.heartbeatTimer);
    this.heartbeatTickMs = tick;
    this.heartbeatTimer = setInterval(() => this.sendHeartbeats(), tick);
    this.heartbeatTimer.unref();
  }

  private stopHeartbeats(): void {
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
    this.heartbeatTickMs = 0;
  }

  private sendHeartbeats(): void {
    const nc = this.nc;
    if (!nc) return;
    const beat = encodeFrame(FrameKind.Ping, 0);
    for (const peer of this.peers.values()) {
      if (!peer.heartbeats) continue;
      try {
        nc.publish(`${peer.key}.hb`, beat, { reply: this.inbox });
      } catch {
        // The connection is gone: the peer's silence timer will tell it; ours tells us.
      }
    }
  }

  // ---- connection ----

  async close(): Promise<void> {
    if (this.closed) return;
    const wasConnected = this.state === 'connected';
    this.closed = true;
    this.setState('closed');
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.wakeRetry?.();
    for (const entry of this.entries) entry.sub?.unsubscribe();
    this.entries.clear();
    const reason = new BusError(BusErrorCode.closed, 'bus closed');
    for (const session of [...this.requesters.values()]) session.receiver.fail(reason, true);
    for (const session of [...this.serverSessions.values()]) session.sender.abort(reason, true);
    this.stopHeartbeats();
    for (const resolve of this.connectedWaiters) resolve(undefined);
    await this.tracker.settle(this.options.closeGraceMs);
    const nc = this.nc;
    if (!nc || nc.isClosed()) return;
    // Drain flushes the cancels and errors just sent; without a connection it could wait for a reconnect forever.
    if (wasConnected) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.options.closeGraceMs);
      });
      await Promise.race([nc.drain().catch(() => undefined), grace]);
      clearTimeout(timer);
    }
    if (!nc.isClosed()) await nc.close();
  }

  private async connectLoop(): Promise<void> {
    while (!this.closed) {
      try {
        const nc = await connect({
          servers: this.servers,
          name: this.natsOptions.name,
          token: this.natsOptions.token,
          user: this.natsOptions.user,
          pass: this.natsOptions.pass,
          reconnect: true,
          maxReconnectAttempts: -1,
          reconnectTimeWait: this.reconnectDelayMs,
          timeout: 5000,
          // nats.js otherwise builds an Error per request for its stack, used only to report a timeout.
          noAsyncTraces: true,
        });
        if (this.closed) {
          await nc.close();
          return;
        }
        this.onConnected(nc);
        return;
      } catch {
        // Not reachable yet: stay 'reconnecting' and try again; requests wait up to their own deadline.
        await new Promise<void>((resolve) => {
          this.wakeRetry = resolve;
          this.retryTimer = setTimeout(resolve, this.reconnectDelayMs);
        });
      }
    }
  }

  private onConnected(nc: NatsConnection): void {
    this.nc = nc;
    this.setState('connected');
    this.maxFrameBytes = this.frameBytes(nc);
    nc.subscribe(`${this.inbox}.*`, {
      callback: (err, msg) => {
        if (err) return;
        const id = msg.subject.slice(this.inbox.length + 1);
        if (id === 'hb') this.onHeartbeat(msg);
        else if (id.startsWith('r')) this.onRequesterFrame(id, msg);
        else if (id.startsWith('s')) this.onServerControl(id, msg);
      },
    });
    for (const entry of this.entries) this.openSubscription(nc, entry);
    for (const resolve of this.connectedWaiters) resolve(nc);
    this.connectedWaiters.clear();
    void this.watchStatus(nc);
  }

  private async watchStatus(nc: NatsConnection): Promise<void> {
    void nc.closed().then(() => {
      if (this.state === 'closed') return;
      this.setState('closed');
      const reason = new BusError(BusErrorCode.closed, 'NATS connection closed');
      for (const session of [...this.requesters.values()]) session.receiver.fail(reason, false);
      for (const session of [...this.serverSessions.values()]) session.sender.abort(reason);
    });
    for await (const event of nc.status()) {
      if (this.state === 'closed') return;
      if (event.type === Events.Disconnect || event.type === DebugEvents.Reconnecting)
        this.setState('reconnecting');
      else if (event.type === Events.Reconnect) this.setState('connected');
    }
  }

  /** The connection, waiting for the first connect up to `timeoutMs`. */
  private connection(timeoutMs: number): Promise<NatsConnection> {
    if (this.nc) return Promise.resolve(this.nc);
    return new Promise<NatsConnection>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.connectedWaiters.delete(waiter);
        reject(new BusError(BusErrorCode.unavailable, `NATS not reachable within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter = (nc: NatsConnection | undefined): void => {
        clearTimeout(timer);
        if (nc) resolve(nc);
        else reject(new BusError(BusErrorCode.closed, 'bus closed'));
      };
      this.connectedWaiters.add(waiter);
    });
  }

  private addSubscription(
    subject: string,
    queue: string | undefined,
    onMessage: (msg: Msg) => void,
  ): Subscription {
    this.assertOpen();
    const entry: SubscriptionEntry = { subject, queue, onMessage };
    this.entries.add(entry);
    if (this.nc) this.openSubscription(this.nc, entry);
    return {
      subject,
      ready: async () => {
        const nc = this.nc ?? (await this.connection(2 ** 31 - 1));
        await nc.flush();
      },
      unsubscribe: () => {
        this.entries.delete(entry);
        entry.sub?.unsubscribe();
        entry.sub = undefined;
      },
    };
  }

  private openSubscription(nc: NatsConnection, entry: SubscriptionEntry): void {
    entry.sub = nc.subscribe(entry.subject, {
      ...(entry.queue ? { queue: entry.queue } : {}),
      callback: (err, msg) => {
        if (err) {
          this.options.onHandlerError(err, entry.subject);
          return;
        }
        try {
          entry.onMessage(msg);
        } catch (failure) {
          this.options.onHandlerError(failure, entry.subject);
        }
      },
    });
  }

  private respond(msg: Msg, data: Uint8Array, failed: boolean): void {
    if (!failed) {
      msg.respond(data);
      return;
    }
    const h = natsHeaders();
    h.set(ERROR_HEADER, '1');
    msg.respond(data, { headers: h });
  }

  private publishQuietly(subject: string, data: Uint8Array): void {
    try {
      this.nc?.publish(subject, data);
    } catch {
      // Only ever a courtesy cancel; the server's liveness timer covers a loss.
    }
  }

  private frameBytes(nc: NatsConnection): number {
    if (this.maxFrameBytes > 0) return this.maxFrameBytes;
    const serverMax = nc.info?.max_payload ?? 1024 * 1024;
    const wanted = this.natsOptions.maxFrameBytes ?? 512 * 1024;
    return Math.max(FRAME_HEADER_BYTES + 1, Math.min(wanted, serverMax));
  }

  private subjectOf(subject: string): string {
    return prefixed(this.options.prefix, subject);
  }

  private assertOpen(): void {
    if (this.closed) throw new BusError(BusErrorCode.closed, 'bus closed');
  }

  private mapNatsError(err: unknown, subject: string, timeoutMs: number): BusError {
    if (err instanceof BusError) return err;
    if (err instanceof NatsError) {
      switch (err.code as ErrorCode) {
        case ErrorCode.NoResponders:
          return new BusError(BusErrorCode.noResponders, `no responders on ${subject}`);
        case ErrorCode.Timeout:
          return new BusError(BusErrorCode.timeout, `no reply on ${subject} within ${timeoutMs} ms`);
        case ErrorCode.ConnectionClosed:
        case ErrorCode.ConnectionDraining:
          return new BusError(BusErrorCode.closed, 'bus closed');
        default:
          return new BusError(BusErrorCode.transport, `NATS ${err.code} on ${subject}`, undefined, {
            cause: err,
          });
      }
    }
    return new BusError(BusErrorCode.transport, `${errorMessage(err)} on ${subject}`, undefined, {
      cause: err,
    });
  }
}

/**
 * How often a process sends each peer a heartbeat: a quarter of the liveness interval. The longest silence of
 * a live peer is then a quarter of the interval, which leaves the rest for a busy event loop or a slow broker.
 * (For a peer of an older release, each stream checks every tick whether it owes a ping or an alive frame.)
 */
function keepAliveTick(livenessMs: number): number {
  return Math.max(8, Math.floor(livenessMs / 4));
}

/** The process a stream subject belongs to: its inbox, the subject without the stream's own last token. */
function peerOf(subject: string): string {
  return subject.slice(0, subject.lastIndexOf('.'));
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
