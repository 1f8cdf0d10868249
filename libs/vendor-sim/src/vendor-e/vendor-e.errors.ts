import { vendorECodeForStatus, vendorEErrorBody, type VendorEProblem } from '@router/vendor-e';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

export function sendVendorEError(exchange: HttpExchange, problem: VendorEProblem): void {
  exchange.sendJson(problem.status, vendorEErrorBody(problem), problem.headers);
}

export function vendorEFaultProblem(fault: FaultSpec): VendorEProblem {
  const status = fault.status ?? 500;
  return {
    status,
    code: fault.code ?? vendorECodeForStatus(status),
    message: fault.message ?? `Simulated failure (${status})`,
    ...(status === 429 ? { headers: { 'retry-after': '1' } } : {}),
  };
}
