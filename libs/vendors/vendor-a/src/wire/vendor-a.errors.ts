import { randomBytes } from 'node:crypto';
import type { TakeWarning } from '@router/contracts';
import { readRefusal, stringAt } from '@router/vendors-core';

/*
 * vendor_a's refusals, both directions: the bodies a server (the simulator, the mirror) answers with, and the
 * reading of them a client (the adapter) turns into an error message.
 */

/** vendor_a's error codes (its REST error table). */
export type VendorAErrorCode =
  | 'invalid_api_key_error'
  | 'invalid_request_error'
  | 'unprocessable_entity_error'
  | 'not_found_error'
  | 'insufficient_quota_error'
  | 'rate_limit_exceeded_error'
  | 'internal_server_error'
  | 'idle_timeout_error';

export interface VendorAProblem {
  readonly status: number;
  readonly code: VendorAErrorCode;
  readonly message: string;
}

/** `20260101_<hex>`: the vendor's request ids start with the day. */
export function vendorARequestId(): string {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  return `${day}_${randomBytes(6).toString('hex')}`;
}

export function vendorAErrorBody(
  problem: VendorAProblem,
  requestId: string | null = vendorARequestId(),
): unknown {
  return { error: { message: problem.message, code: problem.code, request_id: requestId } };
}

/** The vendor's refusal text: `{error: {message}}`, else the framework's `{detail}`, else the body as sent. */
export function vendorAErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error', 'message') ?? stringAt(json, 'detail'));
}

const CODE_BY_STATUS: Readonly<Record<number, VendorAErrorCode>> = {
  400: 'invalid_request_error',
  401: 'invalid_api_key_error',
  403: 'invalid_api_key_error',
  404: 'not_found_error',
  413: 'invalid_request_error',
  422: 'unprocessable_entity_error',
  429: 'rate_limit_exceeded_error',
  503: 'rate_limit_exceeded_error',
};

/** The code the vendor uses for an HTTP status. */
export function vendorACodeForStatus(status: number): VendorAErrorCode {
  return CODE_BY_STATUS[status] ?? 'internal_server_error';
}

export const VENDOR_A_AUTH_PROBLEM: VendorAProblem = {
  status: 403,
  code: 'invalid_api_key_error',
  message: 'Invalid API key. Check the api-subscription-key header.',
};

/** A `dict_id` the account has no dictionary of: the vendor reports it and speaks without one. */
export const VENDOR_A_UNKNOWN_DICTIONARY: VendorAProblem = {
  status: 404,
  code: 'not_found_error',
  message: 'Pronunciation dictionary not found',
};

/**
 * The response header in which the REST endpoints report an error about a take they still spoke (an unknown
 * `dict_id`), as `{code, message}` JSON; the socket sends it as an `error` message instead.
 */
export const VENDOR_A_WARNING_HEADER = 'x-api-warning';

export function vendorAWarningHeader(problem: VendorAProblem): string {
  return JSON.stringify({ code: problem.code, message: problem.message });
}

/** The warning a REST answer's headers carry, if any; one that cannot be read is still a warning. */
export function readVendorAWarning(headers: Readonly<Record<string, string>>): TakeWarning | undefined {
  const value = headers[VENDOR_A_WARNING_HEADER];
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as { code?: unknown; message?: unknown };
    return {
      ...(typeof parsed.code === 'string' ? { code: parsed.code } : {}),
      message: typeof parsed.message === 'string' ? parsed.message : value,
    };
  } catch {
    return { message: value };
  }
}
