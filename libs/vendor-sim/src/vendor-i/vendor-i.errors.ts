import { randomUUID } from 'node:crypto';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { KeyCheck } from '../kit/sim-keys';

/** API versions are dates; from this one on, error bodies are JSON instead of `Title: Message` text. */
export const VENDOR_I_JSON_ERRORS_FROM = '2026-03-01';
/** The oldest version the vendor still serves. */
export const VENDOR_I_OLDEST_VERSION = '2024-06-10';

export interface VendorIProblem {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly errorCode: string;
  readonly headers?: Record<string, string>;
}

/** The version a request names in its header or query, as sent (possibly not a valid one). */
export function requestedVersion(exchange: HttpExchange): string | undefined {
  return exchange.header('vendor_i-version') ?? exchange.query.get('vendor_i_version') ?? undefined;
}

/** A version the vendor knows: a real date, not before its oldest and not in the future. */
export function isKnownVersion(version: string | undefined): boolean {
  if (version === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(version)) return false;
  const date = new Date(`${version}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== version) return false;
  return version >= VENDOR_I_OLDEST_VERSION && date.getTime() <= Date.now();
}

export function jsonErrors(version: string | undefined): boolean {
  return version !== undefined && isKnownVersion(version) && version >= VENDOR_I_JSON_ERRORS_FROM;
}

/** The vendor's error body: JSON from 2026-03-01, plain `Title: Message` text for older versions. */
export function sendVendorIError(exchange: HttpExchange, problem: VendorIProblem): void {
  const headers = { 'x-request-id': randomUUID(), ...problem.headers };
  if (!jsonErrors(requestedVersion(exchange))) {
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
  if (!jsonErrors(version)) return `${title}: ${message}`;
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
