import type { RouterError } from '@router/contracts';
import {
  type JsonMessage,
  JsonSocketConnection,
  type MessageProblem,
  type MirrorSocketRoute,
  sendJson,
  type SocketFailure,
  SOCKET_CLOSE,
  type SocketCommand,
  type SocketContextRenderer,
  SocketContexts,
  type SocketFrame,
} from '@router/vendors-core';
import { vendorGSynthSettings } from './vendor-g.settings';
import {
  readVendorGClientMessage,
  VENDOR_G_IDLE_MS,
  VENDOR_G_MAX_STREAMS,
  VENDOR_G_SOCKET_PATH,
  vendorGAudioEnd,
  vendorGAudioMessage,
  vendorGStreamError,
  vendorGTerminated,
  type VendorGClientMessage,
} from './vendor-g.socket';

/*
 * vendor_g's `/tts-websocket` on its mirror: up to five streams per connection, each a context of its own
 * with its own settings, its text split into sentences by the router (each sentence a take of its own,
 * shared with /v1/stream for equal settings), its audio sent in the vendor's messages as it comes.
 */

/** The flush tag of a stream's `text_end`: its answer is the stream's `audio_end` and `terminated`. */
const TEXT_END = 'text_end';

/** A stream from its accepted config until its `terminated` is sent. */
interface Stream {
  readonly id: string;
  /** `text_end` came: the rest of its text is spoken, then its end. */
  ending: boolean;
  /** A cancel was asked: its `terminated` follows once it has stopped. */
  cancelling: boolean;
  /** Why the codec stopped it, sent before its `terminated` (the vendor ends a stream it refuses). */
  abort: { code: number; message: string } | undefined;
  /** Its `terminated` was sent: nothing more of it reaches the client. */
  terminated: boolean;
}

type Kind = VendorGClientMessage['kind'];

/**
 * One `/tts-websocket` connection. A stream's config becomes a context's settings, its text the context's
 * text, `text_end` a flush whose answer is `audio_end` and `terminated`, `cancel` the context's cancel (only
 * `terminated` follows). A stream that ended (terminated, failed or refused) is released from its context at
 * the connection's next message, so the id is free again as at the vendor and nothing of it is left playing.
 * Every message the vendor cannot read gets its error message; no client message closes the socket.
 */
export class VendorGConnection extends JsonSocketConnection<Kind> {
  /** Streams active at the vendor's reckoning: an id is taken from its config until its `terminated`. */
  private readonly streams = new SocketContexts<Stream>(VENDOR_G_MAX_STREAMS);
  /** Streams that ended while their context may still be open; cancelled at the next message. */
  private released: string[] = [];

  override parse(frame: Buffer, isBinary: boolean): SocketCommand[] {
    // A failed stream's later sentences are dropped by the session (`drop`); its id is freed here.
    const release = this.released.map((id): SocketCommand => ({ kind: 'cancel', context: id }));
    this.released = [];
    return [...release, ...super.parse(frame, isBinary)];
  }

  context(id: string): SocketContextRenderer {
    const stream = this.streams.get(id);
    return stream ? new VendorGStreamRenderer(stream, () => this.terminated(stream)) : SILENT;
  }

  protected kindOf(message: JsonMessage): Kind {
    return readVendorGClientMessage(message).kind;
  }

  protected message(_kind: Kind, json: JsonMessage): SocketCommand[] {
    const message = readVendorGClientMessage(json);
    switch (message.kind) {
      case 'keep-alive':
        return [];
      case 'refused':
        return [sendJson(vendorGStreamError(message.streamId, 400, message.message))];
      case 'config':
        return this.config(message.streamId, json);
      case 'text':
        return this.text(message.streamId, message.text, message.end);
      case 'cancel':
        return this.cancel(message.streamId);
    }
  }

  /** A message the vendor cannot read is answered with an error for the connection; the socket stays open. */
  protected refuse(problem: MessageProblem): SocketCommand[] {
    return [sendJson(vendorGStreamError(undefined, 400, problem.message))];
  }

  private config(id: string, fields: JsonMessage): SocketCommand[] {
    // A config for an active stream is refused without touching the stream that runs under the id.
    if (this.streams.has(id)) {
      return [sendJson(vendorGStreamError(id, 400, `stream_id '${id}' is already active`))];
    }
    if (!this.streams.canOpen(id)) {
      return ended(id, 429, `At most ${VENDOR_G_MAX_STREAMS} streams may be active per connection`);
    }
    const resolved = vendorGSynthSettings(fields);
    if (!resolved.ok) return ended(id, resolved.problem.status, resolved.problem.message);
    this.streams.set(id, { id, ending: false, cancelling: false, abort: undefined, terminated: false });
    return [{ kind: 'configure', context: id, settings: resolved.settings }];
  }

  private text(id: string, text: unknown, end: boolean): SocketCommand[] {
    const stream = this.streams.get(id);
    if (!stream) return unknownStream(id);
    if (stream.cancelling) return [];
    if (stream.ending) return this.stop(stream, 400, 'Text after text_end');
    if (typeof text !== 'string') return this.stop(stream, 400, 'text must be a string');
    const commands: SocketCommand[] = text === '' ? [] : [{ kind: 'text', context: id, text }];
    if (end) {
      stream.ending = true;
      commands.push({ kind: 'flush', context: id, tag: TEXT_END });
    }
    return commands;
  }

  private cancel(id: string): SocketCommand[] {
    const stream = this.streams.get(id);
    if (!stream) return unknownStream(id);
    if (stream.cancelling) return [];
    stream.cancelling = true;
    return [{ kind: 'cancel', context: id }];
  }

  /** The vendor ends a stream whose message it refuses: its error, then `terminated` once it has stopped. */
  private stop(stream: Stream, code: number, message: string): SocketCommand[] {
    stream.abort = { code, message };
    return this.cancel(stream.id);
  }

  private terminated(stream: Stream): void {
    if (this.streams.get(stream.id) === stream) this.streams.delete(stream.id);
    // A cancelled context has ended in the session already; any other is still open there.
    if (!stream.cancelling) this.released.push(stream.id);
  }
}

/** A stream's error followed by its `terminated`, for a stream that never opened or is unknown. */
function ended(id: string, code: number, message: string): SocketCommand[] {
  return [sendJson(vendorGStreamError(id, code, message)), sendJson(vendorGTerminated(id))];
}

function unknownStream(id: string): SocketCommand[] {
  return ended(id, 400, `Unknown stream_id '${id}'; send a config message first`);
}

/**
 * One stream's frames: each chunk of audio as it comes; once `text_end`'s sentences have all been sent, an
 * empty audio message with `audio_end`, then `terminated`; after a cancel, `terminated` alone; a failed
 * sentence ends the stream with the vendor's error and `terminated`, and nothing of it is sent after.
 */
class VendorGStreamRenderer implements SocketContextRenderer {
  constructor(
    private readonly stream: Stream,
    private readonly onTerminated: () => void,
  ) {}

  audio(chunk: Buffer): SocketFrame[] {
    if (this.stream.terminated) return [];
    return [JSON.stringify(vendorGAudioMessage(this.stream.id, chunk))];
  }

  /** The mirror has no character timings to send (the vendor's `timestamps`). */
  sentenceEnd(): SocketFrame[] {
    return [];
  }

  flushed(tag: string | undefined): SocketFrame[] {
    if (tag !== TEXT_END || this.stream.terminated) return [];
    return this.terminate([vendorGAudioEnd(this.stream.id)]);
  }

  finished(): SocketFrame[] {
    if (this.stream.terminated) return [];
    const abort = this.stream.abort;
    return this.terminate(abort ? [vendorGStreamError(this.stream.id, abort.code, abort.message)] : []);
  }

  failed(error: RouterError): SocketFailure {
    if (this.stream.terminated) return { frames: [] };
    // The vendor ends a stream at its first failure: nothing more of it is spoken.
    const frames = this.terminate([vendorGStreamError(this.stream.id, errorCode(error), error.message)]);
    return { frames, drop: {} };
  }

  private terminate(before: Record<string, unknown>[]): SocketFrame[] {
    this.stream.terminated = true;
    this.onTerminated();
    return [...before, vendorGTerminated(this.stream.id)].map((frame) => JSON.stringify(frame));
  }
}

/** A context the codec holds no stream for (never opened by a config): it sends nothing. */
const SILENT: SocketContextRenderer = {
  audio: () => [],
  sentenceEnd: () => [],
  flushed: () => [],
  finished: () => [],
  failed: () => ({ frames: [] }),
};

/** The vendor's HTTP-like `error_code` for a failure: its own status where it refused, else by kind. */
function errorCode(error: RouterError): number {
  if (error.providerStatus !== undefined) return error.providerStatus;
  switch (error.code) {
    case 'unauthorized':
    case 'provider_key_missing':
      return 401;
    case 'insufficient_credits':
      return 402;
    case 'provider_rate_limited':
      return 429;
    case 'provider_timeout':
      return 408;
    case 'provider_unavailable':
      return 503;
    case 'bad_request':
    case 'provider_rejected':
      return 400;
    default:
      return 500;
  }
}

/** vendor_g's one socket. A connection no client message has reached for a minute is closed, as the vendor's. */
export const vendorGSocketRoutes: readonly MirrorSocketRoute[] = [
  {
    path: new RegExp(`^${VENDOR_G_SOCKET_PATH}$`),
    open: () => new VendorGConnection(),
    idle: () => ({ ms: VENDOR_G_IDLE_MS, code: SOCKET_CLOSE.normal, reason: 'idle timeout' }),
  },
];
