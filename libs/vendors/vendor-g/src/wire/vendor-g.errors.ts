import type { RouterError } from '@router/contracts';
import { readRefusal, stringAt, vendorFailure } from '@router/vendors-core';

/*
 * vendor_g's refusals, both directions: the REST body `{status_code, error_type, message,
 * validation_errors, request_id}` (both hosts) and the HTTP trailers of an error after the first audio byte,
 * written by a server (the simulator, the mirror) and read by the adapter.
 */

export interface VendorGProblem {
  readonly status: number;
  readonly errorType: string;
  readonly message: string;
  readonly validationErrors?: readonly { readonly field: string; readonly message: string }[];
}

export function vendorGErrorBody(problem: VendorGProblem, requestId: string): Record<string, unknown> {
  return {
    status_code: problem.status,
    error_type: problem.errorType,
    message: problem.message,
    validation_errors: problem.validationErrors ?? [],
    request_id: requestId,
  };
}

export function invalidRequest(message: string, field?: string): VendorGProblem {
  return {
    status: 400,
    errorType: 'invalid_request',
    message,
    ...(field ? { validationErrors: [{ field, message }] } : {}),
  };
}

export const VENDOR_G_AUTH_PROBLEM: VendorGProblem = {
  status: 401,
  errorType: 'unauthenticated',
  message: 'Invalid or missing API key',
};

const TYPE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  402: 'insufficient_quota',
  404: 'not_found',
  408: 'request_timeout',
  429: 'rate_limit_exceeded',
  500: 'internal_error',
  503: 'service_unavailable',
};

/** The `error_type` the vendor gives an HTTP status. */
export function vendorGTypeForStatus(status: number): string {
  return TYPE_BY_STATUS[status] ?? 'internal_error';
}

/** The vendor's refusal text: `{message}` of its error body, else the body itself. */
export function vendorGErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'message'));
}

/**
 * The trailers of an error after the first audio byte. The vendor's notes say only that such errors come in
 * HTTP trailers; these names are the router's own choice, written by the simulator and read by the adapter.
 */
export const VENDOR_G_ERROR_TRAILERS = ['error-status', 'error-type', 'error-message'] as const;

export function vendorGErrorTrailers(
  problem: VendorGProblem,
): Record<(typeof VENDOR_G_ERROR_TRAILERS)[number], string> {
  return {
    'error-status': String(problem.status),
    'error-type': problem.errorType,
    'error-message': problem.message,
  };
}

/** A failure reported in trailers; any trailer of that family marks the take as failed. */
export function vendorGTrailerFailure(trailers: Readonly<Record<string, string>>): RouterError | null {
  const status = trailers['error-status'];
  const type = trailers['error-type'];
  const message = trailers['error-message'];
  if (status === undefined && type === undefined && message === undefined) return null;
  const code = Number(status);
  return vendorFailure(
    'vendor_g',
    Number.isInteger(code) && code >= 400 ? code : 502,
    message ?? type ?? 'vendor_g reported a failure after the audio started',
  );
}
