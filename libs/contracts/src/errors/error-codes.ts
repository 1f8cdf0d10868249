/**
 * The native error envelope's codes with their HTTP status and retryability, as the spec's table gives them.
 * Every surface maps its failures to one of these; mirrors translate them into their vendor's own shape.
 */
export const ERROR_CODES = {
  bad_request: { status: 400, retryable: false },
  unauthorized: { status: 401, retryable: false },
  insufficient_credits: { status: 402, retryable: false },
  provider_key_missing: { status: 400, retryable: false },
  provider_rejected: { status: 400, retryable: false },
  provider_rate_limited: { status: 429, retryable: true },
  provider_unavailable: { status: 502, retryable: true },
  provider_timeout: { status: 504, retryable: true },
  not_found: { status: 404, retryable: false },
  /** A dashboard session's request that changes something without the session's CSRF token. */
  forbidden: { status: 403, retryable: false },
  /**
   * Past a limit: the org's (syntheses at once, open sockets, requests per second) or too many attempts of one
   * kind (the dashboard's sign-ins); the answer's `Retry-After` says when to try again.
   */
  rate_limited: { status: 429, retryable: true },
  internal: { status: 500, retryable: true },
  /**
   * Something the answer needs is out of reach for now (the database during an outage, an app restarting, a
   * process draining): retry.
   */
  unavailable: { status: 503, retryable: true },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}

export interface ErrorEnvelope {
  error: {
    code: ErrorCode;
    message: string;
    retryable: boolean;
    provider_status?: number;
  };
}
