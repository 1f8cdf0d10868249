import {
  vendorBAuthRefusal,
  vendorBCodeForStatus,
  vendorBErrorBody,
  type VendorBProblem,
} from '@router/vendor-b';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { KeyCheck } from '../kit/sim-keys';

export function sendVendorBError(exchange: HttpExchange, problem: VendorBProblem): void {
  exchange.sendJson(problem.status, vendorBErrorBody(problem), problem.headers);
}

export function sendVendorBAuthRefusal(exchange: HttpExchange, check: Exclude<KeyCheck, 'ok'>): void {
  const refusal = vendorBAuthRefusal(check);
  exchange.sendJson(refusal.status, refusal.body, refusal.headers);
}

export function vendorBFaultProblem(fault: FaultSpec): VendorBProblem {
  const status = fault.status ?? 500;
  return {
    status,
    code: fault.code ?? vendorBCodeForStatus(status),
    message: fault.message ?? `Simulated failure (${status})`,
    ...(status === 429 ? { headers: { 'retry-after': '1' } } : {}),
  };
}
