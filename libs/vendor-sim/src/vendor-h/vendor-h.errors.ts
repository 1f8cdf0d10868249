import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

export interface VendorHProblem {
  readonly status: number;
  readonly message: string;
}

/** The vendor's error body is a bare `{error: "<message>"}` for every status. */
export function sendVendorHError(exchange: HttpExchange, problem: VendorHProblem): void {
  exchange.sendJson(problem.status, { error: problem.message });
}

/** A missing or wrong bearer key, on every route (the spec's mirror refusal has the same shape). */
export function sendVendorHAuthRefusal(exchange: HttpExchange): void {
  sendVendorHError(exchange, { status: 401, message: 'unauthorized' });
}

export function vendorHFaultProblem(fault: FaultSpec): VendorHProblem {
  const status = fault.status ?? 500;
  return { status, message: fault.message ?? `Simulated failure (${status})` };
}
