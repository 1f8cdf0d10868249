import { randomUUID } from 'node:crypto';
import { vendorGErrorBody, vendorGTypeForStatus, type VendorGProblem } from '@router/vendor-g';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

export function sendVendorGError(exchange: HttpExchange, problem: VendorGProblem): void {
  exchange.sendJson(problem.status, vendorGErrorBody(problem, randomUUID()));
}

export function vendorGFaultProblem(fault: FaultSpec): VendorGProblem {
  const status = fault.status ?? 500;
  return {
    status,
    errorType: fault.code ?? vendorGTypeForStatus(status),
    message: fault.message ?? `Simulated failure (${status})`,
  };
}
