import { randomBytes } from 'node:crypto';
import { readRefusal, stringAt } from '@router/vendors-core';

/*
 * vendor_d's refusals, both directions: `{error: {message, type, param, code}}` (all four always present),
 * written by a server (the simulator, the mirror) and read by the adapter.
 */

export interface VendorDProblem {
  readonly status: number;
  readonly type: string;
  readonly message: string;
  readonly param: string | null;
  readonly code: string | null;
  readonly headers?: Record<string, string>;
}

export function vendorDRequestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}

export function vendorDErrorBody(problem: VendorDProblem): { error: Record<string, unknown> } {
  return {
    error: { message: problem.message, type: problem.type, param: problem.param, code: problem.code },
  };
}

export function vendorDAuthProblem(check: 'missing' | 'invalid'): VendorDProblem {
  return {
    status: 401,
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
    message:
      check === 'missing'
        ? "You didn't provide an API key. Provide it in an Authorization header (Bearer auth)."
        : 'Incorrect API key provided.',
  };
}

/** A 400 naming the field, as the vendor's validation answers. */
export function badField(param: string, message: string): VendorDProblem {
  return { status: 400, type: 'invalid_request_error', param, code: null, message };
}

const TYPE_BY_STATUS: Readonly<Record<number, { type: string; code: string | null }>> = {
  400: { type: 'invalid_request_error', code: null },
  404: { type: 'invalid_request_error', code: 'not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
};

/** The error type and code the vendor gives an HTTP status. */
export function vendorDTypeForStatus(status: number): { type: string; code: string | null } {
  return (
    TYPE_BY_STATUS[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null }
  );
}

/** The vendor's refusal text: `{error: {message}}`, else the body as sent. */
export function vendorDErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error', 'message'));
}
