/** The codes of the router's native error envelope (`not_found` is the provider-key DELETE's). */
export type RouterErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'insufficient_credits'
  | 'provider_key_missing'
  | 'provider_rejected'
  | 'provider_rate_limited'
  | 'provider_unavailable'
  | 'provider_timeout'
  | 'not_found'
  | 'rate_limited'
  | 'internal'
  | 'unavailable';

/** The `error` object of the envelope, as it is on the wire. */
export interface RouterErrorBody {
  code: RouterErrorCode;
  message: string;
  retryable: boolean;
  /** The vendor's HTTP status, for vendor refusals. */
  provider_status?: number;
}

const CODES: ReadonlySet<string> = new Set<RouterErrorCode>([
  'bad_request',
  'unauthorized',
  'insufficient_credits',
  'provider_key_missing',
  'provider_rejected',
  'provider_rate_limited',
  'provider_unavailable',
  'provider_timeout',
  'not_found',
  'rate_limited',
  'internal',
  'unavailable',
]);

/**
 * The router refused or failed a request and said so with its error envelope: an HTTP error response,
 * a refused WebSocket handshake, or an `error` message on `/v1/stream`.
 */
export class RouterApiError extends Error {
  override readonly name = 'RouterApiError';
  readonly code: RouterErrorCode;
  readonly retryable: boolean;
  /** The vendor's HTTP status, for vendor refusals (`provider_rejected`, …). */
  readonly providerStatus: number | undefined;
  /** The HTTP status of the response (or of the refused handshake); undefined for `/v1/stream` messages. */
  readonly httpStatus: number | undefined;
  /** On `/v1/stream`: the index of the sentence that failed, when the error is a sentence's. */
  readonly sentence: number | undefined;
  /** The envelope's `error` object exactly as received. */
  readonly body: RouterErrorBody;

  constructor(body: RouterErrorBody, context: { httpStatus?: number; sentence?: number } = {}) {
    super(body.message);
    this.body = body;
    this.code = body.code;
    this.retryable = body.retryable;
    this.providerStatus = body.provider_status;
    this.httpStatus = context.httpStatus;
    this.sentence = context.sentence;
  }
}

/**
 * The connection to the router failed or was cut: nothing could be sent, a response ended early (after
 * audio has started an error can only abort the body), or a WebSocket failed. Worth retrying.
 */
export class RouterConnectionError extends Error {
  override readonly name: string = 'RouterConnectionError';
  readonly retryable: boolean = true;

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
  }
}

/** Close codes after which reconnecting is the remedy (see the protocol's close codes). */
const RETRYABLE_CLOSE_CODES: ReadonlySet<number> = new Set([1001, 1006, 1011, 1012, 1013]);

/**
 * A `/v1/stream` session ended otherwise than by the client's own `close()` (close code 1000) or
 * `disconnect()`: 1001 the router is shutting down, 1009 a message was too big, 1011 an internal failure,
 * 4008 idle, 1006 the connection was lost.
 */
export class StreamClosedError extends RouterConnectionError {
  override readonly name: string = 'StreamClosedError';
  override readonly retryable: boolean;

  constructor(
    readonly closeCode: number,
    readonly reason: string,
  ) {
    super(`The stream was closed with code ${closeCode}${reason ? ` (${reason})` : ''}`);
    this.retryable = RETRYABLE_CLOSE_CODES.has(closeCode);
  }
}

/** Reads a JSON value as the envelope's `error` object, or null when it is not one. */
export function errorBodyOf(value: unknown): RouterErrorBody | null {
  if (typeof value !== 'object' || value === null || !('error' in value)) return null;
  const error: unknown = value.error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, retryable, provider_status } = error as Record<string, unknown>;
  if (typeof code !== 'string' || !CODES.has(code)) return null;
  if (typeof message !== 'string' || typeof retryable !== 'boolean') return null;
  const body: RouterErrorBody = { code: code as RouterErrorCode, message, retryable };
  if (typeof provider_status === 'number') body.provider_status = provider_status;
  return body;
}

/**
 * The error for a non-2xx answer. A body without the envelope (a proxy's page, say) becomes `internal`,
 * retryable for 5xx statuses, with the start of the body as its message.
 */
export function errorFromResponse(status: number, text: string): RouterApiError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body = errorBodyOf(parsed) ?? {
    code: 'internal',
    message: `HTTP ${status} without the router's error envelope: ${text.slice(0, 200)}`,
    retryable: status >= 500,
  };
  return new RouterApiError(body, { httpStatus: status });
}
