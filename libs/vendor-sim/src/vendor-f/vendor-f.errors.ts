import { vendorFErrorBody, type VendorFProblem } from '@router/vendor-f';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

export function sendVendorFError(exchange: HttpExchange, problem: VendorFProblem): void {
  exchange.sendJson(problem.status, vendorFErrorBody(problem), problem.headers);
}

export function vendorFFaultProblem(fault: FaultSpec): VendorFProblem {
  const status = fault.status ?? 500;
  return {
    status,
    message: fault.message ?? `Simulated failure (${status})`,
    ...(status === 429 ? { headers: { 'retry-after': '1' } } : {}),
  };
}
