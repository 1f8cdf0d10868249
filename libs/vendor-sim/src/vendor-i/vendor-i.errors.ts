import { randomUUID } from 'node:crypto';
import {
  VENDOR_I_VERSION_HEADER,
  vendorIAuthBody,
  vendorIErrorReply,
  vendorIRequestedVersion,
  vendorIStatusTitle,
  type VendorIProblem,
} from '@router/vendor-i';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { KeyCheck } from '../kit/sim-keys';

/** The version a request names in its header or query, as sent (possibly not a valid one). */
export function requestedVersion(exchange: HttpExchange): string | undefined {
  return vendorIRequestedVersion({
    headers: { [VENDOR_I_VERSION_HEADER]: exchange.header(VENDOR_I_VERSION_HEADER) },
    query: exchange.query,
  });
}

export function sendVendorIError(exchange: HttpExchange, problem: VendorIProblem): void {
  const headers = { 'x-request-id': randomUUID(), ...problem.headers };
  const reply = vendorIErrorReply(problem, requestedVersion(exchange), headers['x-request-id']);
  if (reply.kind === 'text') exchange.send(problem.status, 'text/plain; charset=utf-8', reply.body, headers);
  else exchange.sendJson(problem.status, reply.body, headers);
}

export function sendVendorIAuthRefusal(exchange: HttpExchange, check: Exclude<KeyCheck, 'ok'>): void {
  const body = vendorIAuthBody(check, requestedVersion(exchange));
  const headers = { 'x-request-id': randomUUID() };
  if (typeof body === 'string') exchange.send(401, 'text/plain; charset=utf-8', body, headers);
  else exchange.sendJson(401, body, headers);
}

export function vendorIFaultProblem(fault: FaultSpec): VendorIProblem {
  const status = fault.status ?? 500;
  const { title, errorCode } = vendorIStatusTitle(status);
  return {
    status,
    title,
    errorCode: fault.code ?? errorCode,
    message: fault.message ?? `Simulated failure (${status})`,
    ...(status === 429 ? { headers: { 'retry-after': '1' } } : {}),
  };
}
