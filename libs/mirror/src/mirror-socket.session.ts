import { RouterError } from '@router/contracts';
import type { Logger } from '@router/observability';
import {
  asRouterError,
  ReplyStream,
  type ReplyStreamDeps,
  type RequestLogWriter,
  RequestTally,
} from '@router/pipeline';
import type { SocketPeer, SocketSession } from '@router/service-kit';
import { findVendor } from '@router/vendors';
import {
  type ContextEnd,
  PROTOCOL_GOING_AWAY,
  SOCKET_CLOSE,
  type SocketClose,
  type SocketCommand,
  type SocketConnection,
  type SocketContextRenderer,
  type SocketFrame,
} from '@router/vendors-core';

export interface MirrorSocketDeps extends ReplyStreamDeps {
  /** The clock of `when-quiet` commands. */
  timers: SocketTimers;
  logger: Logger;
  /** How the vendor closes a socket when its server goes away (the route's `goingAway`); 1001 unless said. */
  goingAway?: SocketClose;
  /** Where the session's row goes once its socket closes, with the API key's hash the gateway forwarded. */
  requestLog?: { writer: RequestLogWriter; keyHash: string | null; vendor: string };
}

/** Where a session's timers come from: the runtime's in an app, a clock moved by hand in tests. */
export interface SocketTimers {
  /** Calls `fire` once after `ms`; the function returned cancels it. */
  start(ms: number, fire: () => void): () => void;
}

export const SYSTEM_TIMERS: SocketTimers = {
  start(ms, fire) {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};

interface Context {
  stream: ReplyStream;
  render: SocketContextRenderer;
  /** The sentence whose first chunk is still to come, to tell the renderer which chunk starts one. */
  starting: number | null;
  /** Whether the sentence playing is replayed from the cache. */
  cached: boolean;
  /** The content type of the sentence playing, for its chunks. */
  contentType: string;
  /** The context's pending `when-quiet`, until it fires or is dropped. */
  quiet: QuietTimer | undefined;
}

interface QuietTimer {
  cancel(): void;
}

/**
 * One connection of a vendor's socket on its mirror: the vendor folder's codec parses each client message
 * into commands, each context's sentences play through a reply stream of their own (the pipeline's rules:
 * cache, look-ahead, flush, interrupt, client gone), and the codec renders the events in the vendor's frames.
 * Messages are handled one at a time in the order they came; a context that is finishing does not hold up the
 * others.
 */
export class MirrorSocketSession implements SocketSession {
  private readonly contexts = new Map<string, Context>();
  /** Contexts finishing or cancelled, until their last frame is sent. */
  private readonly ending = new Set<Promise<void>>();
  /** Cancelled contexts by id, until their last frame is sent: the id named again waits for it. */
  private readonly cancelling = new Map<string, Promise<void>>();
  private inbox: Promise<void> = Promise.resolve();
  private readonly tally = new RequestTally();
  private readonly deps: MirrorSocketDeps;
  private closing = false;
  private gone = false;

  constructor(
    readonly id: string,
    private readonly orgId: string,
    private readonly peer: SocketPeer,
    private readonly connection: SocketConnection,
    deps: MirrorSocketDeps,
  ) {
    // Every context's stream adds to the one tally of the session.
    this.deps = { ...deps, tally: this.tally };
    if (deps.requestLog) this.tally.settings({ vendor: deps.requestLog.vendor, model: '', voice: '' });
    this.inbox = this.run(connection.opened()).catch((error: unknown) => this.fail(error));
  }

  receive(frame: Buffer, isBinary: boolean): void {
    // Once the socket is closing, what the client sends after is not read at all.
    this.enqueue(() => (this.ended ? [] : this.connection.parse(frame, isBinary)));
  }

  disconnected(): void {
    if (!this.gone && this.deps.requestLog) {
      const { writer, keyHash } = this.deps.requestLog;
      writer.record(this.tally.row(this.orgId, keyHash, 'mirror_socket', null));
    }
    this.gone = true;
    for (const context of this.contexts.values()) {
      stopQuiet(context);
      context.stream.disconnected();
    }
  }

  /**
   * The router is going away: the messages already read are handled and every context plays out what it was
   * given (text not yet flushed waits for its flush, or the vendor's timed flush), then the socket closes with
   * the vendor's going-away.
   */
  async drain(): Promise<void> {
    for (;;) {
      const inbox = this.inbox;
      await inbox;
      const contexts = [...this.contexts.values()];
      await Promise.all([...this.ending, ...contexts.map((context) => context.stream.whenQuiet())]);
      if (inbox === this.inbox) break;
    }
    if (this.ended) return;
    this.close(this.deps.goingAway ?? PROTOCOL_GOING_AWAY);
  }

  shutdown(): void {
    if (this.ended) return;
    this.close(this.deps.goingAway ?? PROTOCOL_GOING_AWAY);
  }

  private get ended(): boolean {
    return this.gone || this.closing;
  }

  /** Commands run after those of the messages before, one message (or timer) at a time. */
  private enqueue(commands: () => readonly SocketCommand[]): void {
    this.inbox = this.inbox.then(() => this.run(commands())).catch((error: unknown) => this.fail(error));
  }

  private async run(commands: readonly SocketCommand[]): Promise<void> {
    for (const command of commands) {
      if (this.ended) return;
      await this.apply(command);
    }
  }

  private async apply(command: SocketCommand): Promise<void> {
    switch (command.kind) {
      case 'send':
        return this.send([command.frame]);
      case 'refuse':
        this.send([command.frame]);
        if (command.close) this.close(command.close);
        return;
      case 'close':
        return this.closeAll();
      default:
        return this.applyToContext(command);
    }
  }

  private async applyToContext(
    command: Exclude<SocketCommand, { kind: 'send' | 'refuse' | 'close' }>,
  ): Promise<void> {
    // A barge-in's acknowledgement comes before anything the context says next (an interrupt ends at once).
    const cancelled = this.contexts.has(command.context) ? undefined : this.cancelling.get(command.context);
    if (cancelled) await cancelled;
    const context = this.contextOf(command.context);
    try {
      switch (command.kind) {
        case 'when-quiet':
          return this.whenQuiet(context, command.ms, command.commands);
        case 'configure': {
          const def = findVendor(command.settings.vendor);
          if (!def) throw RouterError.badRequest(`unknown vendor ${command.settings.vendor}`);
          await context.stream.configure(def, command.settings);
          return;
        }
        case 'text':
          stopQuiet(context);
          requireSettings(context, 'text');
          await context.stream.refresh();
          return context.stream.push(command.text);
        case 'flush': {
          requireSettings(context, 'a flush');
          await context.stream.refresh();
          const { tag } = command;
          return context.stream.flush(() => this.send(context.render.flushed(tag)), tag);
        }
        case 'finish':
          await context.stream.refresh();
          void this.end(command.context, context, endedAs('finish', context.stream.finish()));
          return;
        case 'drain':
          void this.end(command.context, context, endedAs('drain', context.stream.drain()));
          return;
        case 'cancel': {
          const { context: id } = command;
          const stopping = context.stream
            .interrupt(command.playedMs ?? null)
            .then(({ stopped, spoken, remaining, unanswered }): ContextEnd => ({
              kind: 'cancel',
              stopped,
              spoken,
              remaining,
              unanswered: unanswered.map(({ label, through }) => ({ tag: label, through })),
            }));
          const ending = this.end(id, context, stopping);
          this.cancelling.set(id, ending);
          void ending.then(() => {
            if (this.cancelling.get(id) === ending) this.cancelling.delete(id);
          });
          return;
        }
      }
    } catch (error) {
      if (error instanceof RouterError && error.code !== 'internal') return this.failed(context, error);
      throw error;
    }
  }

  /** A context named for the first time is created; one that ended is created afresh. */
  private contextOf(id: string): Context {
    const known = this.contexts.get(id);
    if (known) return known;
    const render = this.connection.context(id);
    const context: Context = {
      render,
      starting: null,
      cached: false,
      contentType: '',
      quiet: undefined,
      stream: new ReplyStream(this.orgId, this.deps, {
        sentenceStart: ({ sentence, cached, contentType }) => {
          context.starting = sentence;
          context.cached = cached;
          context.contentType = contentType;
        },
        audio: (chunk, sentence) => {
          const first = context.starting === sentence;
          context.starting = null;
          const { cached, contentType } = context;
          return this.sendAndWait(render.audio(chunk, { sentence, first, cached, contentType }));
        },
        sentenceEnd: (end) => this.send(render.sentenceEnd(end)),
        sentenceFailed: (sentence, error) => this.failed(context, error, { sentence }),
        failed: (error) => this.fail(error),
      }),
    };
    this.contexts.set(id, context);
    return context;
  }

  /**
   * Arms the context's `when-quiet`, replacing a pending one. When it fires, its commands wait their turn
   * behind the messages already received; text among those (or the context's end) has dropped it by then.
   */
  private whenQuiet(context: Context, ms: number, commands: readonly SocketCommand[]): void {
    stopQuiet(context);
    const timer: QuietTimer = {
      cancel: this.deps.timers.start(ms, () =>
        this.enqueue(() => {
          if (context.quiet !== timer) return [];
          context.quiet = undefined;
          return commands;
        }),
      ),
    };
    context.quiet = timer;
  }

  /**
   * Ends a context once `done`, without holding up the messages of the others; resolves (never rejects) once
   * its last frame is sent.
   */
  private end(id: string, context: Context, done: Promise<ContextEnd>): Promise<void> {
    stopQuiet(context);
    if (this.contexts.get(id) === context) this.contexts.delete(id);
    const ending = done
      .then((end) => this.send(context.render.finished(end)))
      .catch((error: unknown) => this.fail(error))
      .finally(() => this.ending.delete(ending));
    this.ending.add(ending);
    return ending;
  }

  private async closeAll(): Promise<void> {
    this.closing = true;
    for (const [id, context] of this.contexts) {
      void this.end(id, context, endedAs('finish', context.stream.finish()));
    }
    await Promise.all([...this.ending]);
    this.send(this.connection.closing?.() ?? []);
    this.close({ code: SOCKET_CLOSE.normal, reason: '' });
  }

  /** A sentence's or a command's failure, as the renderer answers it (and what it drops of the context). */
  private failed(context: Context, error: RouterError, at?: { sentence: number }): void {
    const { frames, close, drop } = context.render.failed(error, at);
    this.send(frames);
    if (close) this.close(close);
    else if (drop) context.stream.drop(drop.through);
  }

  private close(close: SocketClose): void {
    this.peer.close(close.code, close.reason);
    this.disconnected();
  }

  private send(frames: SocketFrame[]): void {
    if (this.gone) return;
    for (const frame of frames) void this.peer.send(frame);
  }

  /** Sends frames and resolves once the socket can take more (audio's flow control). */
  private async sendAndWait(frames: SocketFrame[]): Promise<void> {
    for (const frame of frames) {
      if (this.gone) return;
      await this.peer.send(frame);
    }
  }

  /** A failure of the session itself, not of a context: the connection cannot go on. */
  private fail(error: unknown): void {
    if (this.gone) return;
    this.tally.failed(asRouterError(error).code);
    this.deps.logger.error(
      { err: error, sessionId: this.id, code: asRouterError(error).code },
      'mirror socket session failed',
    );
    this.peer.close(SOCKET_CLOSE.internal, 'internal error');
    this.disconnected();
  }
}

function endedAs(kind: 'finish' | 'drain', done: Promise<void>): Promise<ContextEnd> {
  return done.then(() => ({ kind }));
}

function stopQuiet(context: Context): void {
  context.quiet?.cancel();
  context.quiet = undefined;
}

function requireSettings(context: Context, what: string): void {
  if (!context.stream.configured) {
    throw RouterError.badRequest(`${what} came before the context's settings`);
  }
}
