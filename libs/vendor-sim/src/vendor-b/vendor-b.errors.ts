import { randomBytes } from 'node:crypto';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { KeyCheck } from '../kit/sim-keys';

export interface VendorBProblem {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

export function vendorBRequestId(): string {
  return randomBytes(16).toString('hex');
}

/** The vendor's application errors: `{error: {code, message}}`. */
export function sendVendorBError(exchange: HttpExchange, problem: VendorBProblem): void {
  exchange.sendJson(
    problem.status,
    { error: { code: problem.code, message: problem.message } },
    problem.headers,
  );
}

/**
 * A key refusal comes from the vendor's API gateway, not its application: 401 with a `Key` realm challenge
 * and `{message, request_id}`.
 */
export function sendVendorBAuthRefusal(exchange: HttpExchange, check: Exclude<KeyCheck, 'ok'>): void {
  exchange.sendJson(
    401,
    {
      message: check === 'missing' ? 'No API key found in request' : 'Invalid authentication credentials',
      request_id: vendorBRequestId(),
    },
    { 'www-authenticate': 'Key realm="vendor_b"' },
  );
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

export function vendorBFaultProblem(fault: FaultSpec): VendorBProblem {
  const status = fault.status ?? 500;
  return {
    status,
    code: fault.code ?? CODE_BY_STATUS[status] ?? 'internal_error',
    message: fault.message ?? `Simulated failure (${status})`,
    ...(status === 429 ? { headers: { 'retry-after': '1' } } : {}),
  };
}

export const STATUS_TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};
