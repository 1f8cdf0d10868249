import { randomUUID } from 'node:crypto';
import { RouterError, type SynthSettings } from '@router/contracts';
import {
  type ContextEnd,
  type JsonMessage,
  JsonSocketConnection,
  jsonReply,
  type MessageProblem,
  type MirrorSocketRoute,
  type SentenceEnd,
  SOCKET_CLOSE,
  type SocketCommand,
  type SocketContextRenderer,
  type SocketFailure,
  type SocketFrame,
  sendJson,
  flagIsSet,
} from '@router/vendors-core';
import {
  isKnownVendorIVersion,
  VENDOR_I_OLDEST_VERSION,
  VENDOR_I_RELEASES,
  VENDOR_I_VERSION_HEADER,
  VENDOR_I_VERSION_QUERY,
} from './vendor-i.access';
import { type VendorIProblem, vendorIStatusTitle } from './vendor-i.errors';
import {
  vendorIChunkEvent,
  vendorIDoneEvent,
  vendorIErrorEvent,
  vendorIFlushDoneEvent,
  vendorITimestampsEvent,
} from './vendor-i.events';
import { parseVendorIRequest } from './vendor-i.requests';
import { vendorISocketSettings } from './vendor-i.settings';
import {
  readVendorISocketControl,
  VENDOR_I_IDLE_MS,
  VENDOR_I_NO_CONTEXT,
  VENDOR_I_NOT_JSON,
  vendorISocketVersion,
  vendorISocketVersionRefusal,
} from './vendor-i.socket';

/*
 * vendor_i's socket on its mirror, `/tts/websocket` (spec: Vendor drop-ins, vendor_i, and its differences): each
 * message is a full request for its context (`context_id`), so a context is one reply stream configured from
 * its messages' settings, side by side with the others; the reply's events go back in the vendor's frames with
 * the context's id.
 */

type Kind = 'cancel' | 'input';

/** The tag of a flush the buffering asks for (no frame answers it); a client's is `flush:<flush_id>`. */
const TIMED = 'timed';
const CLIENT_FLUSH = 'flush:';

/** The router takes no phoneme timings: a context that asks for them is refused (spec: vendor_i difference 4). */
export const VENDOR_I_NO_PHONEMES: VendorIProblem = {
  status: 400,
  title: 'Invalid request',
  message: 'add_phoneme_timestamps is not supported on this connection',
  errorCode: 'invalid_request',
};

/** One context as the connection and its renderer share it. */
interface ContextState {
  readonly id: string;
  /** The settings it was last configured with. */
  settings: string;
  /** The client's flushes so far (`flush_id` counts from 1). */
  flushes: number;
  /** The latest message asked for word timestamps. */
  timestamps: boolean;
  /** Audio already sent in the context, so word timestamps run on across its sentences. */
  spokenMs: number;
  /** A sentence failed: its `error` was sent and the context speaks nothing more, not even its `done`. */
  failed: boolean;
  /** Its last message (or a cancel) came: the id named again is a new context. */
  ended: boolean;
  /** The session holds its renderer (asked for once, as the context's first commands are carried out). */
  rendered: boolean;
}

/** A vendor_i connection: contexts by `context_id`, each message a request of its context, `cancel` stops one. */
export class VendorIConnection extends JsonSocketConnection<Kind> {
  private readonly contexts = new Map<string, ContextState>();

  /**
   * The renderer of the context the last message named (the session asks as it carries out that message's
   * commands); a context that message ended is forgotten once its renderer has it.
   */
  context(id: string): SocketContextRenderer {
    const context = this.contexts.get(id) ?? this.openContext(id);
    context.rendered = true;
    if (context.ended) this.contexts.delete(id);
    return new VendorIRenderer(context);
  }

  protected kindOf(message: JsonMessage): Kind {
    return flagIsSet(message['cancel']) ? 'cancel' : 'input';
  }

  protected message(kind: Kind, message: JsonMessage): SocketCommand[] {
    const id = message['context_id'];
    if (typeof id !== 'string' || id === '') return [errorFrame(VENDOR_I_NO_CONTEXT, null)];
    return kind === 'cancel' ? this.cancel(id) : this.input(id, message);
  }

  /** A message the vendor cannot read gets its error with no context; the socket stays open. */
  protected refuse(problem: MessageProblem): SocketCommand[] {
    return [errorFrame({ ...VENDOR_I_NOT_JSON, message: problem.message }, null)];
  }

  /**
   * A request of a context: its settings (configured again only when they change), its text, then how it is
   * spoken: the context's end (`continue` not true: what it holds, then `done`), a client's `flush` (then
   * `flush_done`), at once (`max_buffer_delay_ms` 0) or, buffering, once a sentence ends and a trailing
   * fragment after the delay without more text. The closing message's transcript may be empty.
   */
  private input(id: string, message: JsonMessage): SocketCommand[] {
    if (flagIsSet(message['add_phoneme_timestamps'])) return [errorFrame(VENDOR_I_NO_PHONEMES, id)];
    const control = readVendorISocketControl(message);
    const { transcript } = control;
    const parsed = parseVendorIRequest(
      { ...message, transcript: transcript.trim() === '' ? '.' : transcript },
      true,
      () => true,
    );
    if (!parsed.ok) return [errorFrame(parsed.problem, id)];
    let settings: SynthSettings;
    try {
      settings = vendorISocketSettings(message, parsed.request);
    } catch (error) {
      if (!(error instanceof RouterError)) throw error;
      return [errorFrame(problemOf(error), id)];
    }
    const known = this.contexts.get(id);
    const context = known && !known.ended ? known : this.openContext(id);
    // A context whose sentence failed ended at the vendor: its id named again starts it afresh.
    if (context.failed) Object.assign(context, { failed: false, flushes: 0, spokenMs: 0 });
    context.timestamps = flagIsSet(message['add_timestamps']);
    const commands: SocketCommand[] = [];
    const configured = JSON.stringify(settings);
    if (context.settings !== configured) {
      context.settings = configured;
      commands.push({ kind: 'configure', context: id, settings });
    }
    if (transcript !== '') commands.push({ kind: 'text', context: id, text: transcript });
    if (control.last) {
      this.end(context);
      commands.push({ kind: 'finish', context: id });
    } else if (control.flush) {
      context.flushes += 1;
      commands.push({ kind: 'flush', context: id, tag: `${CLIENT_FLUSH}${context.flushes}` });
    } else if (control.bufferDelayMs === 0) {
      commands.push({ kind: 'flush', context: id, tag: TIMED });
    } else {
      const flush: SocketCommand = { kind: 'flush', context: id, tag: TIMED };
      commands.push({ kind: 'when-quiet', context: id, ms: control.bufferDelayMs, commands: [flush] });
    }
    return commands;
  }

  /** `cancel`: the context's unsent sentences are dropped and its `done` comes at once; an unknown one, nothing. */
  private cancel(id: string): SocketCommand[] {
    const context = this.contexts.get(id);
    if (!context || context.ended) return [];
    this.end(context);
    return [{ kind: 'cancel', context: id }];
  }

  /** A context's end: forgotten at once where its renderer exists, else once the session has asked for it. */
  private end(context: ContextState): void {
    context.ended = true;
    if (context.rendered) this.contexts.delete(context.id);
  }

  private openContext(id: string): ContextState {
    const context: ContextState = {
      id,
      settings: '',
      flushes: 0,
      timestamps: false,
      spokenMs: 0,
      failed: false,
      ended: false,
      rendered: false,
    };
    this.contexts.set(id, context);
    return context;
  }
}

/**
 * One context's frames: each chunk of audio as a `chunk` (cached or not, every field the vendor's is sent
 * with), each sentence's word timings as one `timestamps` after its audio where the client asked, running on
 * across the context; `flush_done` for a client's flush, `done` when the context ends or is cancelled; a
 * failed sentence's `error`, after which the context says nothing more.
 */
class VendorIRenderer implements SocketContextRenderer {
  constructor(private readonly context: ContextState) {}

  audio(chunk: Buffer): SocketFrame[] {
    if (this.context.failed) return [];
    // The vendor's compute time is not the router's to tell: a take is read whole, or replayed.
    return [this.frame(vendorIChunkEvent(chunk, 0))];
  }

  sentenceEnd({ text, words, durationMs }: SentenceEnd): SocketFrame[] {
    const context = this.context;
    const offsetMs = context.spokenMs;
    context.spokenMs += durationMs ?? words?.at(-1)?.endMs ?? 0;
    if (!context.timestamps || context.failed || !words || words.length === 0) return [];
    const spans = words.map((w) => ({
      word: text.slice(w.start, w.end),
      startMs: w.startMs,
      endMs: w.endMs,
    }));
    return [this.frame(vendorITimestampsEvent(spans, offsetMs))];
  }

  flushed(tag: string | undefined): SocketFrame[] {
    if (this.context.failed || tag === undefined || !tag.startsWith(CLIENT_FLUSH)) return [];
    return [this.frame(vendorIFlushDoneEvent(Number(tag.slice(CLIENT_FLUSH.length))))];
  }

  finished(_end: ContextEnd): SocketFrame[] {
    return this.context.failed ? [] : [this.frame(vendorIDoneEvent())];
  }

  /**
   * A sentence's failure (a vendor error) is an `error` for the context, whose rest is dropped: the vendor ends
   * a context whose take failed, and the socket stays open. A command's failure (settings the router cannot
   * plan) is an `error` for the context, dropping nothing.
   */
  failed(error: RouterError, at?: { sentence: number }): SocketFailure {
    const frames = [JSON.stringify(vendorIErrorEvent(problemOf(error), randomUUID(), this.ids()))];
    if (!at) return { frames };
    this.context.failed = true;
    return { frames, drop: {} };
  }

  private ids(): Record<string, string> {
    return { context_id: this.context.id };
  }

  private frame(event: Record<string, unknown>): string {
    return JSON.stringify({ ...event, ...this.ids() });
  }
}

/**
 * A router error as the vendor's problem: the vendor's own status and `error_code` where it refused, its title
 * for the status; the router's own failures get the code the vendor uses for their status.
 */
function problemOf(error: RouterError): VendorIProblem {
  const status = error.providerStatus ?? error.status;
  const { title, errorCode } = vendorIStatusTitle(status);
  return { status, title, message: error.message, errorCode: error.providerCode ?? errorCode };
}

function errorFrame(problem: VendorIProblem, contextId: string | null): SocketCommand {
  return sendJson(vendorIErrorEvent(problem, randomUUID(), { context_id: contextId }));
}

/** vendor_i's one socket on its mirror. */
export const vendorISocketRoutes: readonly MirrorSocketRoute[] = [
  {
    path: /^\/tts\/websocket$/,
    openings: [
      { headers: { [VENDOR_I_VERSION_HEADER]: VENDOR_I_RELEASES.at(-1) ?? VENDOR_I_OLDEST_VERSION } },
      { query: [[VENDOR_I_VERSION_QUERY, VENDOR_I_OLDEST_VERSION]] },
    ],
    // The version the vendor requires, in the handshake's header or its query form: without one it serves, its 400.
    refuse: (handshake) => {
      const version = vendorISocketVersion({
        header: (name) => {
          const value = handshake.headers[name];
          return Array.isArray(value) ? value[0] : value;
        },
        query: handshake.query,
      });
      return isKnownVendorIVersion(version) ? undefined : jsonReply(400, vendorISocketVersionRefusal());
    },
    open: () => new VendorIConnection(),
    // The vendor closes a socket after 5 minutes without a client message, normally and with no frame.
    idle: () => ({ ms: VENDOR_I_IDLE_MS, code: SOCKET_CLOSE.normal, reason: 'idle timeout' }),
  },
];
