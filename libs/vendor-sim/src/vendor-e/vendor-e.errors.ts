import { randomUUID } from 'node:crypto';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

/** One refusal in the vendor's REST shape: `{err_code, err_msg, request_id}`. */
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

export function sendVendorEError(exchange: HttpExchange, problem: VendorEProblem): void {
  exchange.sendJson(problem.status, vendorEErrorBody(problem), problem.headers);
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

export function vendorEFaultProblem(fault: FaultSpec): VendorEProblem {
  const status = fault.status ?? 500;
  return {
    status,
    code: fault.code ?? CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'Bad Request'),
    message: fault.message ?? `Simulated failure (${status})`,
    ...(status === 429 ? { headers: { 'retry-after': '1' } } : {}),
  };
}
