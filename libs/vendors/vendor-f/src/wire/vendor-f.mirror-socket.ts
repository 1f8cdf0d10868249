import {
  fieldKind,
  type JsonMessage,
  JsonSocketConnection,
  type MessageProblem,
  type MirrorSocketRoute,
  refuseBadQuery,
  refuseJson,
  sendJson,
  SOCKET_CLOSE,
  type SocketCommand,
  type SocketHandshake,
  type SocketIdle,
} from '@router/vendors-core';
import { vendorFErrorBody } from './vendor-f.errors';
import { Utterances, UTTERANCE_DONE, VendorFRenderer } from './vendor-f.mirror-socket-renderer';
import { VENDOR_F_TTS_PATH } from './vendor-f.requests';
import { vendorFSocketSettings, type VendorFSocketSettings } from './vendor-f.settings';
import { readVendorFClientMessage, vendorFSocketError } from './vendor-f.socket';

/*
 * vendor_f's `/v1/tts` socket on its mirror: settings from the query (fixed for the connection), text as
 * `text.delta`, an utterance ended by `text.done` (answered with `audio.done` once its audio has gone) and
 * dropped by `text.clear` (answered with `audio.clear`). The router splits the text into sentences, each a
 * take of its own shared with /v1/stream for equal settings, and speaks each once it ends. A failed sentence
 * is an `error` that ends its utterance, as the vendor's does: the rest of it is not spoken and no `audio.done`
 * follows.
 */

const KINDS = ['text.delta', 'text.done', 'text.clear'] as const;
type Kind = (typeof KINDS)[number];

/** The socket speaks one utterance at a time: one context, named here. */
const UTTERANCE = 'utterance';

/**
 * The vendor states no idle limit (its clients recycle sockets after a few minutes): a socket quiet for five
 * minutes is closed normally, as the router's own /v1/stream is.
 */
export const VENDOR_F_IDLE: SocketIdle = { ms: 300_000, code: SOCKET_CLOSE.normal, reason: 'idle timeout' };

export const vendorFSocketRoutes: readonly MirrorSocketRoute[] = [
  {
    path: new RegExp(`^${VENDOR_F_TTS_PATH}$`),
    // The socket's settings refused at the upgrade, with the vendor's 400 (`{code: "Bad Request", error}`).
    refuse: refuseBadQuery(vendorFSocketSettings, (message) => vendorFErrorBody({ status: 400, message })),
    open: (handshake) => new VendorFConnection(handshake),
    idle: () => VENDOR_F_IDLE,
  },
];

/** One `/v1/tts` connection. */
export class VendorFConnection extends JsonSocketConnection<Kind> {
  private readonly settings: VendorFSocketSettings;
  private readonly utterances = new Utterances();
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
      return [
        refuseJson(vendorFSocketError(this.settings.message), {
          code: SOCKET_CLOSE.policy,
          reason: 'invalid settings',
        }),
      ];
    }
    return this.configure();
  }

  context(): VendorFRenderer {
    return new VendorFRenderer(this.utterances);
  }

  protected kindOf(message: JsonMessage): Kind | undefined {
    return fieldKind(message, 'type', KINDS);
  }

  protected message(kind: Kind, message: JsonMessage): SocketCommand[] {
    // A connection whose settings were refused is closing: nothing it sends is read.
    if (!this.settings.ok) return [];
    const { utterances } = this;
    switch (kind) {
      case 'text.delta': {
        const read = readVendorFClientMessage(message);
        if (read.type === 'refused') return [sendJson(vendorFSocketError(read.message))];
        if (read.type !== 'text.delta' || read.delta === '' || utterances.dropping) return [];
        return [...this.configure(), { kind: 'text', context: UTTERANCE, text: read.delta }];
      }
      case 'text.done':
        if (utterances.dropping) {
          // The utterance ended with its error; the next one starts after this.
          utterances.dropping = false;
          return [];
        }
        utterances.pendingDone += 1;
        return [...this.configure(), { kind: 'flush', context: UTTERANCE, tag: UTTERANCE_DONE }];
      case 'text.clear':
        // The barge-in ends the context (its sentences stopped or dropped, then `audio.clear`).
        this.configured = false;
        utterances.clear();
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
