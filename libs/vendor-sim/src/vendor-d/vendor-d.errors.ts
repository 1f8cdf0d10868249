import { randomBytes } from 'node:crypto';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { KeyCheck } from '../kit/sim-keys';

/** One refusal in the vendor's shape: `{error: {message, type, param, code}}`, all four always present. */
export interface VendorDProblem {
  readonly status: number;
  readonly type: string;
  readonly message: string;
  readonly param: string | null;
  readonly code: string | null;
  readonly headers?: Record<string, string>;
}

export function vendorDRequestId(): string {
  return `req_${randomBytes(16).toString('hex')}`;
}

export function vendorDErrorBody(problem: VendorDProblem): { error: Record<string, unknown> } {
  return {
    error: { message: problem.message, type: problem.type, param: problem.param, code: problem.code },
  };
}

export function sendVendorDError(exchange: HttpExchange, problem: VendorDProblem): void {
  exchange.sendJson(problem.status, vendorDErrorBody(problem), {
    'x-request-id': vendorDRequestId(),
    ...problem.headers,
  });
}

export function vendorDAuthProblem(check: Exclude<KeyCheck, 'ok'>): VendorDProblem {
  return {
    status: 401,
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
    message:
      check === 'missing'
        ? "You didn't provide an API key. Provide it in an Authorization header (Bearer auth)."
        : 'Incorrect API key provided.',
  };
}

/** A 400 naming the field, as the vendor's validation answers. */
export function badField(param: string, message: string): VendorDProblem {
  return { status: 400, type: 'invalid_request_error', param, code: null, message };
}

const TYPE_BY_STATUS: Readonly<Record<number, { type: string; code: string | null }>> = {
  400: { type: 'invalid_request_error', code: null },
  404: { type: 'invalid_request_error', code: 'not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
  503: { type: 'server_error', code: null },
};

/** An injected fault as the vendor would report it (429 with its rate-limit headers). */
export function vendorDFaultProblem(fault: FaultSpec): VendorDProblem {
  const status = fault.status ?? 500;
  const known = TYPE_BY_STATUS[status] ?? {
    type: status >= 500 ? 'server_error' : 'invalid_request_error',
    code: null,
  };
  return {
    status,
    type: known.type,
    param: null,
    code: fault.code ?? known.code,
    message: fault.message ?? `Simulated failure (${status})`,
    ...(status === 429 ? { headers: { 'retry-after': '1', 'x-ratelimit-remaining-requests': '0' } } : {}),
  };
}
