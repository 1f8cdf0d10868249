import { vendorJErrorBody, vendorJStatusName, type VendorJProblem } from '@router/vendor-j';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

export function sendVendorJError(exchange: HttpExchange, problem: VendorJProblem): void {
  exchange.sendJson(problem.code, vendorJErrorBody(problem), {
    ...(problem.code === 429 ? { 'retry-after': '1' } : {}),
  });
}

export function vendorJFaultProblem(fault: FaultSpec): VendorJProblem {
  const code = fault.status ?? 500;
  return {
    code,
    status: fault.code ?? vendorJStatusName(code),
    message: fault.message ?? `Simulated failure (${code})`,
  };
}
