import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { KeyCheck } from '../kit/sim-keys';

/** The vendor's error body, the same for every status: `{error: {code, message, status, details?}}`. */
export interface VendorJProblem {
  readonly code: number;
  readonly status: string;
  readonly message: string;
  readonly details?: readonly Record<string, unknown>[];
}

const ERROR_INFO_TYPE = 'type.vendor-j.invalid/rpc.ErrorInfo';

export function vendorJErrorBody(problem: VendorJProblem): { error: Record<string, unknown> } {
  return {
    error: {
      code: problem.code,
      message: problem.message,
      status: problem.status,
      ...(problem.details ? { details: problem.details } : {}),
    },
  };
}

export function sendVendorJError(exchange: HttpExchange, problem: VendorJProblem): void {
  exchange.sendJson(problem.code, vendorJErrorBody(problem), {
    ...(problem.code === 429 ? { 'retry-after': '1' } : {}),
  });
}

export function invalidArgument(message: string): VendorJProblem {
  return { code: 400, status: 'INVALID_ARGUMENT', message };
}

/** A wrong key is a 400 with reason `API_KEY_INVALID`; no key at all is a 403. */
export function vendorJAuthProblem(check: Exclude<KeyCheck, 'ok'>): VendorJProblem {
  if (check === 'missing') {
    return {
      code: 403,
      status: 'PERMISSION_DENIED',
      message:
        "Method doesn't allow unregistered callers. Please use an API key or other form of API authentication.",
      details: [{ '@type': ERROR_INFO_TYPE, reason: 'CREDENTIALS_MISSING', domain: 'vendor-j.invalid' }],
    };
  }
  return {
    code: 400,
    status: 'INVALID_ARGUMENT',
    message: 'API key not valid. Please pass a valid API key.',
    details: [{ '@type': ERROR_INFO_TYPE, reason: 'API_KEY_INVALID', domain: 'vendor-j.invalid' }],
  };
}

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function vendorJFaultProblem(fault: FaultSpec): VendorJProblem {
  const code = fault.status ?? 500;
  return {
    code,
    status: fault.code ?? STATUS_NAMES[code] ?? 'UNKNOWN',
    message: fault.message ?? `Simulated failure (${code})`,
  };
}
