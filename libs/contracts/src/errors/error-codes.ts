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
  internal: { status: 500, retryable: true },
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
