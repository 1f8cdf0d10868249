import { randomBytes } from 'node:crypto';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

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

export function sendVendorAError(exchange: HttpExchange, problem: VendorAProblem): void {
  exchange.sendJson(problem.status, vendorAErrorBody(problem));
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

/** The vendor's error for an injected fault: its status, and the code the vendor uses for that status. */
export function vendorAFaultProblem(fault: FaultSpec): VendorAProblem {
  const status = fault.status ?? 500;
  return {
    status,
    code: (fault.code as VendorAErrorCode | undefined) ?? CODE_BY_STATUS[status] ?? 'internal_server_error',
    message: fault.message ?? `Simulated failure (${status})`,
  };
}

export const AUTH_PROBLEM: VendorAProblem = {
  status: 403,
  code: 'invalid_api_key_error',
  message: 'Invalid API key. Check the api-subscription-key header.',
};
