import {
  vendorACodeForStatus,
  vendorAErrorBody,
  type VendorAErrorCode,
  type VendorAProblem,
} from '@router/vendor-a';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

export function sendVendorAError(exchange: HttpExchange, problem: VendorAProblem): void {
  exchange.sendJson(problem.status, vendorAErrorBody(problem));
}

/** The vendor's error for an injected fault: its status, and the code the vendor uses for that status. */
export function vendorAFaultProblem(fault: FaultSpec): VendorAProblem {
  const status = fault.status ?? 500;
  return {
    status,
    code: (fault.code as VendorAErrorCode | undefined) ?? vendorACodeForStatus(status),
    message: fault.message ?? `Simulated failure (${status})`,
  };
}
