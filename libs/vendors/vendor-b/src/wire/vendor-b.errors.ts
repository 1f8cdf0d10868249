import { randomBytes } from 'node:crypto';
import { readRefusal, stringAt } from '@router/vendors-core';

/*
 * vendor_b's refusals, both directions: its application's `{error: {code, message}}` and its API gateway's
 * `{message, request_id}`, written by a server (the simulator, the mirror) and read by the adapter.
 */

export interface VendorBProblem {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

export function vendorBRequestId(): string {
  return randomBytes(16).toString('hex');
}

export function vendorBErrorBody(problem: VendorBProblem): { error: { code: string; message: string } } {
  return { error: { code: problem.code, message: problem.message } };
}

/**
 * A key refusal comes from the vendor's API gateway, not its application: 401 with a `Key` realm challenge
 * and `{message, request_id}`.
 */
export function vendorBAuthRefusal(check: 'missing' | 'invalid'): {
  status: number;
  body: { message: string; request_id: string };
  headers: Record<string, string>;
} {
  return {
    status: 401,
    body: {
      message: check === 'missing' ? 'No API key found in request' : 'Invalid authentication credentials',
      request_id: vendorBRequestId(),
    },
    headers: { 'www-authenticate': 'Key realm="vendor_b"' },
  };
}

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  404: 'not_found',
  422: 'invalid_request',
  429: 'rate_limit_exceeded',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'timeout',
};

/** The application's error code for an HTTP status. */
export function vendorBCodeForStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? 'internal_error';
}

const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The title a stream's `error` event gives a status. */
export function vendorBStatusTitle(status: number): string {
  return STATUS_TITLES[status] ?? 'Error';
}

/** The vendor's refusal text: `{error: {message}}` (application), `{message}` (its gateway), else the body. */
export function vendorBErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error', 'message') ?? stringAt(json, 'message'));
}
