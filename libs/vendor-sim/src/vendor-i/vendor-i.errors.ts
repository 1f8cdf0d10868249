import { randomUUID } from 'node:crypto';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { KeyCheck } from '../kit/sim-keys';
import { vendorIJsonErrors, vendorIRequestedVersion, VENDOR_I_VERSION_HEADER } from '@router/vendor-i';

// The version rules are the vendor's wire: they live in its folder, shared with the mirror's refusals.
export { isKnownVendorIVersion as isKnownVersion, vendorIJsonErrors as jsonErrors } from '@router/vendor-i';

export interface VendorIProblem {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly errorCode: string;
  readonly headers?: Record<string, string>;
}

/** The version a request names in its header or query, as sent (possibly not a valid one). */
export function requestedVersion(exchange: HttpExchange): string | undefined {
  return vendorIRequestedVersion({
    headers: { [VENDOR_I_VERSION_HEADER]: exchange.header(VENDOR_I_VERSION_HEADER) },
    query: exchange.query,
  });
}

/** The vendor's error body: JSON from 2026-03-01, plain `Title: Message` text for older versions. */
export function sendVendorIError(exchange: HttpExchange, problem: VendorIProblem): void {
  const headers = { 'x-request-id': randomUUID(), ...problem.headers };
  if (!vendorIJsonErrors(requestedVersion(exchange))) {
    exchange.send(
      problem.status,
      'text/plain; charset=utf-8',
      `${problem.title}: ${problem.message}`,
      headers,
    );
    return;
  }
  exchange.sendJson(
    problem.status,
    {
      status_code: problem.status,
      error_code: problem.errorCode,
      title: problem.title,
      message: problem.message,
      request_id: headers['x-request-id'],
      doc_url: 'https://docs.vendor-i.invalid/errors',
    },
    headers,
  );
}

/** The 401 body for a missing or wrong key: `{error_code, title, message, request_id}`, or its plain-text form. */
export function vendorIAuthBody(check: Exclude<KeyCheck, 'ok'>, version: string | undefined): unknown {
  const title = 'Unauthorized';
  const message = check === 'missing' ? 'No API key was provided.' : 'Invalid API key.';
  if (!vendorIJsonErrors(version)) return `${title}: ${message}`;
  return { error_code: 'invalid_api_key', title, message, request_id: randomUUID() };
}

export function sendVendorIAuthRefusal(exchange: HttpExchange, check: Exclude<KeyCheck, 'ok'>): void {
  const body = vendorIAuthBody(check, requestedVersion(exchange));
  const headers = { 'x-request-id': randomUUID() };
  if (typeof body === 'string') exchange.send(401, 'text/plain; charset=utf-8', body, headers);
  else exchange.sendJson(401, body, headers);
}

const TITLES: Readonly<Record<number, [string, string]>> = {
  400: ['Bad Request', 'bad_request'],
  404: ['Not Found', 'not_found'],
  429: ['Too Many Requests', 'rate_limited'],
  500: ['Internal Server Error', 'internal_error'],
  502: ['Bad Gateway', 'bad_gateway'],
  503: ['Service Unavailable', 'service_unavailable'],
  504: ['Gateway Timeout', 'timeout'],
};

export function vendorIFaultProblem(fault: FaultSpec): VendorIProblem {
  const status = fault.status ?? 500;
  const [title, errorCode] = TITLES[status] ?? ['Error', 'error'];
  return {
    status,
    title,
    errorCode: fault.code ?? errorCode,
    message: fault.message ?? `Simulated failure (${status})`,
    ...(status === 429 ? { headers: { 'retry-after': '1' } } : {}),
  };
}
