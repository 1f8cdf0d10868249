import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

/** One refusal in the shape of the vendor's API gateway: `{code: <status text>, error: <message>}`. */
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

export function sendVendorFError(exchange: HttpExchange, problem: VendorFProblem): void {
  exchange.sendJson(problem.status, vendorFErrorBody(problem), problem.headers);
}

export const VENDOR_F_AUTH_PROBLEM: VendorFProblem = { status: 401, message: 'incorrect API key provided' };

export function vendorFFaultProblem(fault: FaultSpec): VendorFProblem {
  const status = fault.status ?? 500;
  return {
    status,
    message: fault.message ?? `Simulated failure (${status})`,
    ...(status === 429 ? { headers: { 'retry-after': '1' } } : {}),
  };
}
