import { ERROR_CODES, type ErrorCode, type ErrorEnvelope } from './error-codes';
import { isStoreUnreachable } from './store-unreachable';

/**
 * A failure the router reports to its caller. It crosses process boundaries as its envelope, so the same
 * error thrown in a worker reaches the client with the same code, status and vendor status.
 */
export class RouterError extends Error {
  /** The HTTP status; it differs from the code's default only where a surface's contract says so (422). */
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: { providerStatus?: number; providerCode?: string; status?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'RouterError';
    this.status = options.status ?? ERROR_CODES[code].status;
    this.providerStatus = options.providerStatus;
    this.providerCode = options.providerCode;
  }

  readonly providerStatus: number | undefined;
  /**
   * The vendor's own code for its refusal or failure (`error_code`), where its error body names one: for a
   * mirror to pass on in the vendor's shape. Not part of the router's own envelope.
   */
  readonly providerCode: string | undefined;

  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }

  toEnvelope(): ErrorEnvelope {
    const error: ErrorEnvelope['error'] = {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
    };
    if (this.providerStatus !== undefined) error.provider_status = this.providerStatus;
    return { error };
  }

  static badRequest(message: string, status?: number): RouterError {
    return new RouterError('bad_request', message, status === undefined ? {} : { status });
  }

  static unauthorized(
    message = 'The API key is missing, wrong or revoked, or the org is disabled.',
  ): RouterError {
    return new RouterError('unauthorized', message);
  }

  /** An org out of credit (402): the gateway's refusal of a key's org and the dashboard's of a session's. */
  static outOfCredit(): RouterError {
    return new RouterError(
      'insufficient_credits',
      'The org is out of credit; new requests are refused until credit is added.',
    );
  }

  static unavailable(message: string, cause?: unknown): RouterError {
    return new RouterError('unavailable', message, { cause });
  }

  static internal(cause?: unknown): RouterError {
    return new RouterError('internal', 'The router failed; please retry.', { cause });
  }

  /**
   * What a failure the router did not foresee is told as: `unavailable` when a store it needs cannot be reached
   * (`isStoreUnreachable`: PostgreSQL stopped, restarting or cut off), else `internal`. Every surface's last
   * resort goes through here, so an outage is never a 500.
   */
  static unexpected(cause: unknown): RouterError {
    if (cause instanceof RouterError) return cause;
    return isStoreUnreachable(cause)
      ? RouterError.unavailable('A store the router needs is out of reach for now; retry shortly.', cause)
      : RouterError.internal(cause);
  }
}
