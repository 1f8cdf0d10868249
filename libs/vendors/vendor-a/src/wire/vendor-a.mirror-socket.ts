import type { RouterError, TakeWarning } from '@router/contracts';
import {
  type JsonMessage,
  JsonSocketConnection,
  type MessageProblem,
  type MirrorSocketRoute,
  refuseJson,
  sendJson,
  SOCKET_CLOSE,
  type SocketCommand,
  type SocketContextRenderer,
  type SocketFailure,
  type SocketFrame,
  type SocketHandshake,
  type SocketIdle,
} from '@router/vendors-core';
import { vendorACodeForStatus, vendorARequestId, type VendorAErrorCode } from './vendor-a.errors';
import { parseVendorASettings } from './vendor-a.requests';
import { vendorASocketSettingsOf } from './vendor-a.settings';
import {
  readVendorAClientMessage,
  VENDOR_A_FINAL_EVENT,
  VENDOR_A_IDLE_MS,
  vendorAAudioMessage,
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

/** The vendor closes a socket without client messages for 60 s: its idle error, then a policy close. */
export const VENDOR_A_IDLE: SocketIdle = {
  ms: VENDOR_A_IDLE_MS,
  frames: [
    JSON.stringify(
      vendorASocketError(
        'idle_timeout_error',
        `Connection closed after ${VENDOR_A_IDLE_MS / 1000} s without messages`,
      ),
    ),
  ],
  code: SOCKET_CLOSE.policy,
  reason: 'idle timeout',
};

/** The router's failure of a sentence in the vendor's words: the vendor's code for its status, else the router's. */
function vendorACode(error: RouterError): VendorAErrorCode {
  if (error.providerStatus !== undefined) return vendorACodeForStatus(error.providerStatus);
  switch (error.code) {
    case 'bad_request':
      return 'invalid_request_error';
    case 'provider_rate_limited':
      return 'rate_limit_exceeded_error';
    case 'provider_key_missing':
    case 'unauthorized':
      return 'invalid_api_key_error';
    default:
      return 'internal_server_error';
  }
}

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

  context(): SocketContextRenderer {
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

/**
 * The stream's frames: each sentence's audio as `audio` frames under a request id of its own, the vendor's
 * error for a take it spoke while reporting one after that take's audio, and with completion events one
 * `final` per flush once its audio has gone.
 */
class VendorARenderer implements SocketContextRenderer {
  /** The request id of the sentence whose audio is playing, from its first chunk to its end. */
  private requestId: string | undefined;

  constructor(private readonly completionEvents: boolean) {}

  audio(chunk: Buffer, at: { first: boolean; contentType?: string }): SocketFrame[] {
    if (at.first || this.requestId === undefined) this.requestId = vendorARequestId();
    if (chunk.length === 0) return [];
    return [JSON.stringify(vendorAAudioMessage(this.requestId, chunk, at.contentType ?? ''))];
  }

  sentenceEnd(end: { warning?: TakeWarning | null }): SocketFrame[] {
    const requestId = this.requestId;
    this.requestId = undefined;
    const { warning } = end;
    if (!warning) return [];
    const code = (warning.code ?? 'invalid_request_error') as VendorAErrorCode;
    return [JSON.stringify(vendorASocketError(code, warning.message, requestId))];
  }

  flushed(): SocketFrame[] {
    return this.completionEvents ? [JSON.stringify(VENDOR_A_FINAL_EVENT)] : [];
  }

  finished(): SocketFrame[] {
    return [];
  }

  /** A failed sentence (or config the router cannot plan) is the vendor's `error`; the socket stays open. */
  failed(failure: RouterError, at?: { sentence: number }): SocketFailure {
    // A sentence's request: the one whose audio had started, else the one the vendor refused.
    const requestId = at ? (this.requestId ?? vendorARequestId()) : undefined;
    this.requestId = undefined;
    return { frames: [JSON.stringify(vendorASocketError(vendorACode(failure), failure.message, requestId))] };
  }
}

/** vendor_a's two sockets on its mirror, one per model generation. */
export const vendorASocketRoutes: readonly MirrorSocketRoute[] = (
  Object.keys(VENDOR_A_SOCKET_MODEL) as VendorASocketEndpoint[]
).map((endpoint) => ({
  path: endpoint === 'ws' ? /^\/text-to-speech\/ws$/ : /^\/text-to-speech\/ws\/v2$/,
  open: (handshake: SocketHandshake) => new VendorAConnection(handshake, endpoint),
  idle: () => VENDOR_A_IDLE,
}));
