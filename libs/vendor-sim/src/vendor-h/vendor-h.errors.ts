import { VENDOR_H_AUTH_PROBLEM, vendorHErrorBody, type VendorHProblem } from '@router/vendor-h';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

export function sendVendorHError(exchange: HttpExchange, problem: VendorHProblem): void {
  exchange.sendJson(problem.status, vendorHErrorBody(problem));
}

export function sendVendorHAuthRefusal(exchange: HttpExchange): void {
  sendVendorHError(exchange, VENDOR_H_AUTH_PROBLEM);
}

export function vendorHFaultProblem(fault: FaultSpec): VendorHProblem {
  const status = fault.status ?? 500;
  return { status, message: fault.message ?? `Simulated failure (${status})` };
}
