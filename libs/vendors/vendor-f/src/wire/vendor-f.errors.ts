import { readRefusal, stringAt } from '@router/vendors-core';

/*
 * vendor_f's refusals, both directions: its API gateway's `{code: <status text>, error: <message>}`, written
 * by a server (the simulator, the mirror) and read by the adapter.
 */

export interface VendorFProblem {
  readonly status: number;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function vendorFErrorBody(problem: VendorFProblem): { code: string; error: string } {
  return { code: STATUS_TEXT[problem.status] ?? 'Error', error: problem.message };
}

export const VENDOR_F_AUTH_PROBLEM: VendorFProblem = { status: 401, message: 'incorrect API key provided' };

/** The vendor gateway's refusal text: `{code, error}`, else `{message}`, else the body. */
export function vendorFErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error') ?? stringAt(json, 'message'));
}
