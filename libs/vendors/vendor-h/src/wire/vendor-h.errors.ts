import { readRefusal, stringAt } from '@router/vendors-core';

/*
 * vendor_h's HTTP refusals, both directions: a bare `{error: "<message>"}` for every status, written by a
 * server (the simulator, the mirror) and read by the adapter.
 */

export interface VendorHProblem {
  readonly status: number;
  readonly message: string;
}

export function vendorHErrorBody(problem: VendorHProblem): { error: string } {
  return { error: problem.message };
}

/** A missing or wrong bearer key, on every route and at the socket upgrade. */
export const VENDOR_H_AUTH_PROBLEM: VendorHProblem = { status: 401, message: 'unauthorized' };

/** The vendor's refusal text: `{error: "..."}`, the newer `{error: {message}}`, else the body. */
export function vendorHErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error') ?? stringAt(json, 'error', 'message'));
}
