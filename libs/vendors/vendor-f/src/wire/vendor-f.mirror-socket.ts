import { RouterError } from '@router/contracts';
import {
  fieldKind,
  type JsonMessage,
  JsonSocketConnection,
  type MessageProblem,
  type MirrorSocketRoute,
  refuseJson,
  sendJson,
  SOCKET_CLOSE,
  type SocketClose,
  type SocketCommand,
  type SocketContextRenderer,
  type SocketFrame,
  type SocketHandshake,
  type SocketIdle,
} from '@router/vendors-core';
import { VENDOR_F_TTS_PATH } from './vendor-f.requests';
import { vendorFSocketSettings, type VendorFSocketSettings } from './vendor-f.settings';
import {
  readVendorFClientMessage,
  VENDOR_F_AUDIO_CLEAR,
  VENDOR_F_AUDIO_DONE,
  vendorFAudioDelta,
  vendorFSocketError,
} from './vendor-f.socket';

/*
 * vendor_f's `/v1/tts` socket on its mirror: settings from the query (fixed for the connection), text as
 * `text.delta`, an utterance ended by `text.done` (answered with `audio.done` once its audio has gone) and
 * dropped by `text.clear` (answered with `audio.clear`). The router splits the text into sentences, each a
 * take of its own shared with /v1/stream for equal settings, and speaks each once it ends.
 */

const KINDS = ['text.delta', 'text.done', 'text.clear'] as const;
type Kind = (typeof KINDS)[number];

/** The socket speaks one utterance at a time: one context, named here. */
const UTTERANCE = 'utterance';
/** The tag of a `text.done`'s flush, answered with `audio.done`. */
const UTTERANCE_DONE = 'text.done';

/**
 * The vendor states no idle limit (its clients recycle sockets after a few minutes): a socket quiet for five
 * minutes is closed normally, as the router's own /v1/stream is.
 */
export const VENDOR_F_IDLE: SocketIdle = { ms: 300_000, code: SOCKET_CLOSE.normal, reason: 'idle timeout' };

/** The socket's settings refused at the upgrade, with the vendor's 400 (`{code: "Bad Request", error}`). */
function checkHandshake({ query }: Pick<SocketHandshake, 'query'>): RouterError | null {
  const settings = vendorFSocketSettings(query);
  return settings.ok ? null : RouterError.badRequest(settings.message);
}

export const vendorFSocketRoutes: readonly MirrorSocketRoute[] = [
  {
    path: new RegExp(`^${VENDOR_F_TTS_PATH}$`),
    check: checkHandshake,
    open: (handshake) => new VendorFConnection(handshake),
    idle: () => VENDOR_F_IDLE,
  },
];

/** One `/v1/tts` connection. */
export class VendorFConnection extends JsonSocketConnection<Kind> {
  private readonly settings: VendorFSocketSettings;
  /** Whether the utterance context has the socket's settings: a `text.clear` ends it, and the next one needs them. */
  private configured = false;

  constructor(handshake: SocketHandshake) {
    super();
    this.settings = vendorFSocketSettings(handshake.query);
  }

  /**
   * The socket's settings for its utterances. Settings the vendor refuses never get here (the upgrade is
   * refused), but a connection opened on them is refused as the vendor refuses an utterance, and closed.
   */
  override opened(): SocketCommand[] {
    if (!this.settings.ok) {
      const close: SocketClose = { code: SOCKET_CLOSE.policy, reason: 'invalid settings' };
      return [refuseJson(vendorFSocketError(this.settings.message), close)];
    }
    return this.configure();
  }

  context(): SocketContextRenderer {
    return new VendorFRenderer();
  }

  protected kindOf(message: JsonMessage): Kind | undefined {
    return fieldKind(message, 'type', KINDS);
  }

  protected message(kind: Kind, message: JsonMessage): SocketCommand[] {
    // A connection whose settings were refused is closing: nothing it sends is read.
    if (!this.settings.ok) return [];
    switch (kind) {
      case 'text.delta': {
        const read = readVendorFClientMessage(message);
        if (read.type === 'refused') return [sendJson(vendorFSocketError(read.message))];
        if (read.type !== 'text.delta' || read.delta === '') return [];
        return [...this.configure(), { kind: 'text', context: UTTERANCE, text: read.delta }];
      }
      case 'text.done':
        return [...this.configure(), { kind: 'flush', context: UTTERANCE, tag: UTTERANCE_DONE }];
      case 'text.clear':
        // The barge-in ends the context (its sentences stopped or dropped, then `audio.clear`).
        this.configured = false;
        return [{ kind: 'cancel', context: UTTERANCE }];
    }
  }

  /** The vendor answers a message it cannot read with an `error` and keeps the socket open. */
  protected refuse(problem: MessageProblem): SocketCommand[] {
    return [sendJson(vendorFSocketError(problem.message))];
  }

  private configure(): SocketCommand[] {
    if (this.configured || !this.settings.ok) return [];
    this.configured = true;
    return [{ kind: 'configure', context: UTTERANCE, settings: this.settings.settings }];
  }
}

/** The utterance's frames: base64 audio as it comes, `audio.done` after a `text.done`, `audio.clear` after a clear. */
class VendorFRenderer implements SocketContextRenderer {
  audio(chunk: Buffer): SocketFrame[] {
    return chunk.length === 0 ? [] : [JSON.stringify(vendorFAudioDelta(chunk))];
  }

  /** The vendor's timings come only from its own socket; the router's takes have none (`with_timestamps`). */
  sentenceEnd(): SocketFrame[] {
    return [];
  }

  flushed(tag: string | undefined): SocketFrame[] {
    return tag === UTTERANCE_DONE ? [JSON.stringify(VENDOR_F_AUDIO_DONE)] : [];
  }

  /** Only a `text.clear` ends the context. */
  finished(): SocketFrame[] {
    return [JSON.stringify(VENDOR_F_AUDIO_CLEAR)];
  }

  /**
   * A failed sentence is an `error` for the utterance (the vendor's message where it refused); the socket stays
   * open. TODO(socket seam: "a failed sentence drops the rest of its request"): at the vendor an `error` ends the
   * utterance, so its later sentences and its `audio.done` should be dropped once the seam can say so.
   */
  failed(error: RouterError): { frames: SocketFrame[]; close?: SocketClose } {
    return { frames: [JSON.stringify(vendorFSocketError(error.message))] };
  }
}
