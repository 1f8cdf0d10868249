import {
  vendorDErrorBody,
  vendorDRequestId,
  vendorDTypeForStatus,
  type VendorDProblem,
} from '@router/vendor-d';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

export function sendVendorDError(exchange: HttpExchange, problem: VendorDProblem): void {
  exchange.sendJson(problem.status, vendorDErrorBody(problem), {
    'x-request-id': vendorDRequestId(),
    ...problem.headers,
  });
}

/** An injected fault as the vendor would report it (429 with its rate-limit headers). */
export function vendorDFaultProblem(fault: FaultSpec): VendorDProblem {
  const status = fault.status ?? 500;
  const known = vendorDTypeForStatus(status);
  return {
    status,
    type: known.type,
    param: null,
    code: fault.code ?? known.code,
    message: fault.message ?? `Simulated failure (${status})`,
    ...(status === 429 ? { headers: { 'retry-after': '1', 'x-ratelimit-remaining-requests': '0' } } : {}),
  };
}
