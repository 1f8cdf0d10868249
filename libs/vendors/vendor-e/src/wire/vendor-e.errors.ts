import { randomUUID } from 'node:crypto';
import { readRefusal, stringAt } from '@router/vendors-core';

/*
 * vendor_e's refusals, both directions: the REST shape `{err_code, err_msg, request_id}` written by a server
 * (the simulator, the mirror), and the adapter's reading of it (and of the vendor's newer `{message}`).
 */

export interface VendorEProblem {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

export function vendorERequestId(): string {
  return randomUUID();
}

export function vendorEErrorBody(problem: VendorEProblem): Record<string, unknown> {
  return { err_code: problem.code, err_msg: problem.message, request_id: vendorERequestId() };
}

export const VENDOR_E_AUTH_PROBLEM: VendorEProblem = {
  status: 401,
  code: 'INVALID_AUTH',
  message: 'Invalid credentials.',
};

export function badQuery(message: string, code = 'INVALID_QUERY_PARAMETER'): VendorEProblem {
  return { status: 400, code, message };
}

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
};

/** The `err_code` the vendor gives an HTTP status. */
export function vendorECodeForStatus(status: number): string {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'Bad Request');
}

/** The vendor's refusal text: `err_msg` (its older shape), `message` (its newer one), else the body. */
export function vendorEErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'err_msg') ?? stringAt(json, 'message'));
}
