import { randomUUID } from 'node:crypto';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

export interface VendorGProblem {
  readonly status: number;
  readonly errorType: string;
  readonly message: string;
  readonly validationErrors?: readonly { readonly field: string; readonly message: string }[];
}

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

export function invalidRequest(message: string, field?: string): VendorGProblem {
  return {
    status: 400,
    errorType: 'invalid_request',
    message,
    ...(field ? { validationErrors: [{ field, message }] } : {}),
  };
}

export const AUTH_PROBLEM: VendorGProblem = {
  status: 401,
  errorType: 'unauthenticated',
  message: 'Invalid or missing API key',
};

/** The vendor's REST error body (both hosts). */
export function sendVendorGError(exchange: HttpExchange, problem: VendorGProblem): void {
  exchange.sendJson(problem.status, {
    status_code: problem.status,
    error_type: problem.errorType,
    message: problem.message,
    validation_errors: problem.validationErrors ?? [],
    request_id: randomUUID(),
  });
}

export function vendorGFaultProblem(fault: FaultSpec): VendorGProblem {
  const status = fault.status ?? 500;
  return {
    status,
    errorType: fault.code ?? TYPE_BY_STATUS[status] ?? 'internal_error',
    message: fault.message ?? `Simulated failure (${status})`,
  };
}
