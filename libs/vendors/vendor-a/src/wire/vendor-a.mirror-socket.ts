import {
  type JsonMessage,
  JsonSocketConnection,
  type MessageProblem,
  type MirrorSocketRoute,
  refuseJson,
  sendJson,
  SOCKET_CLOSE,
  type SocketCommand,
  type SocketHandshake,
} from '@router/vendors-core';
import type { VendorAErrorCode } from './vendor-a.errors';
import { VendorARenderer } from './vendor-a.mirror-socket-renderer';
import { parseVendorASettings } from './vendor-a.requests';
import { vendorASocketSettingsOf } from './vendor-a.settings';
import {
  readVendorAClientMessage,
  VENDOR_A_IDLE,
  vendorACompletionEvents,
  vendorAConfigFirst,
  vendorASocketError,
  vendorASocketModelProblem,
  vendorASocketTextProblem,
  type VendorASocketEndpoint,
  VENDOR_A_SOCKET_MODEL,
} from './vendor-a.socket';

/*
 * vendor_a's sockets on its mirror, `/text-to-speech/ws` (a_model_1) and `/ws/v2` (a_model_2): `config` (first,
 * and sent again to change the sentences after it), `text`, `flush` and `ping` (spec: Vendor drop-ins,
 * vendor_a; Events, vendor_a WebSocket). The router splits the text into sentences, each a take of its own
 * shared with /v1/stream for equal settings, and speaks each once it ends, without waiting for `flush`; with
 * `send_completion_event=true` each flush is answered with one `final` after its audio. A failed sentence, and
 * a take the vendor spoke while reporting an error, is an `error` frame; the socket stays open, as the vendor's.
 */

/** Every JSON object is read by the vendor's own reader (`readVendorAClientMessage`), which refuses a bad type. */
type Kind = 'message';

/** The socket speaks one stream of text: one context, named here. */
const STREAM = 'stream';

/** One connection of either socket. */
export class VendorAConnection extends JsonSocketConnection<Kind> {
  private readonly model: string | null;
  private readonly completionEvents: boolean;
  /** The settings of the last config the vendor took, to configure again only on a change. */
  private configured: string | undefined;

  constructor(
    handshake: SocketHandshake,
    private readonly endpoint: VendorASocketEndpoint,
  ) {
    super();
    this.model = handshake.query.get('model');
    this.completionEvents = vendorACompletionEvents(handshake.query);
  }

  /** The vendor's refusal of a socket without its model, or with the other socket's: an error, then 1008. */
  override opened(): SocketCommand[] {
    const problem = vendorASocketModelProblem(this.endpoint, this.model);
    if (!problem) return [];
    return [
      refuseJson(vendorASocketError('invalid_request_error', problem.message), {
        code: SOCKET_CLOSE.policy,
        reason: problem.reason,
      }),
    ];
  }

  context(): VendorARenderer {
    return new VendorARenderer(this.completionEvents);
  }

  protected kindOf(): Kind {
    return 'message';
  }

  protected message(_kind: Kind, message: JsonMessage): SocketCommand[] {
    const read = readVendorAClientMessage(message);
    if (!read.ok) return [sendJson(vendorASocketError(read.code, read.message))];
    const sent = read.message;
    switch (sent.type) {
      case 'config':
        return this.config(sent.data);
      case 'text': {
        if (this.configured === undefined)
          return [error('invalid_request_error', vendorAConfigFirst('text'))];
        const text = sent.data['text'];
        const problem = vendorASocketTextProblem(text);
        if (problem) return [error(problem.code, problem.message)];
        return text === '' ? [] : [{ kind: 'text', context: STREAM, text: text as string }];
      }
      case 'flush':
        if (this.configured === undefined)
          return [error('invalid_request_error', vendorAConfigFirst('flush'))];
        return [{ kind: 'flush', context: STREAM }];
      case 'ping':
        // Keep-alive: it restarts the idle clock (every client message does), and the vendor answers nothing.
        return [];
    }
  }

  /** The vendor answers a message it cannot read with an `error` and keeps the socket open. */
  protected refuse(problem: MessageProblem): SocketCommand[] {
    return [error('invalid_request_error', problem.message)];
  }

  /**
   * A config, checked as the vendor checks it (the query's model wins over one the config names): refused with
   * the vendor's error, the settings before it staying; taken, the sentences after it are spoken with it.
   */
  private config(data: Readonly<Record<string, unknown>>): SocketCommand[] {
    const parsed = parseVendorASettings(data, 'ws', this.model ?? undefined);
    if (!parsed.ok) return [error(parsed.problem.code, parsed.problem.message)];
    const settings = vendorASocketSettingsOf(data, parsed.settings);
    if (!settings.ok) return [error('invalid_request_error', settings.message)];
    const configured = JSON.stringify(settings.settings);
    if (this.configured === configured) return [];
    this.configured = configured;
    return [{ kind: 'configure', context: STREAM, settings: settings.settings }];
  }
}

function error(code: VendorAErrorCode, message: string): SocketCommand {
  return sendJson(vendorASocketError(code, message));
}

/** vendor_a's two sockets on its mirror, one per model generation. */
export const vendorASocketRoutes: readonly MirrorSocketRoute[] = (
  Object.keys(VENDOR_A_SOCKET_MODEL) as VendorASocketEndpoint[]
).map((endpoint) => ({
  path: endpoint === 'ws' ? /^\/text-to-speech\/ws$/ : /^\/text-to-speech\/ws\/v2$/,
  open: (handshake: SocketHandshake) => new VendorAConnection(handshake, endpoint),
  idle: () => VENDOR_A_IDLE,
}));
