import { STATUS_CODES } from 'node:http';
import {
  headerValue,
  jsonReply,
  type MirrorAccess,
  type MirrorRequest,
  type MirrorReply,
  textReply,
  uuidRequestId,
  vendorDoor,
} from '@router/vendors-core';
import { VENDOR_I_KEY } from './vendor-i.key';

/** API versions are dates; from this one on, error bodies are JSON instead of `Title: Message` text. */
export const VENDOR_I_JSON_ERRORS_FROM = '2026-03-01';
/** The oldest version the vendor still serves. */
export const VENDOR_I_OLDEST_VERSION = '2024-06-10';
export const VENDOR_I_VERSION_HEADER = 'vendor_i-version';
export const VENDOR_I_VERSION_QUERY = 'vendor_i_version';

/** The version a request names in its header or query, as sent (possibly not a valid one). */
export function vendorIRequestedVersion(
  request: Pick<MirrorRequest, 'headers' | 'query'>,
): string | undefined {
  return (
    headerValue(request, VENDOR_I_VERSION_HEADER) ?? request.query.get(VENDOR_I_VERSION_QUERY) ?? undefined
  );
}

/** A version the vendor knows: a real date, not before its oldest and not in the future. */
export function isKnownVendorIVersion(version: string | undefined): boolean {
  if (version === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(version)) return false;
  const date = new Date(`${version}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== version) return false;
  return version >= VENDOR_I_OLDEST_VERSION && date.getTime() <= Date.now();
}

/**
 * The vendor's releases, oldest first: the dated versions its notes have seen, and the one its error bodies
 * turned JSON. A version names the behaviour of the newest release on or before its date, so every date from
 * one release to the next answers alike.
 */
export const VENDOR_I_RELEASES: readonly string[] = [
  '2024-06-10',
  '2024-11-13',
  '2025-04-16',
  VENDOR_I_JSON_ERRORS_FROM,
  '2026-08-14',
];

/** The release whose behaviour a version the vendor knows pins (`isKnownVendorIVersion`), else undefined. */
export function vendorIRelease(version: string | undefined): string | undefined {
  if (!isKnownVendorIVersion(version)) return undefined;
  return VENDOR_I_RELEASES.filter((release) => release <= (version as string)).at(-1);
}

/** Whether errors for this version are JSON (from 2026-03-01) rather than plain text. */
export function vendorIJsonErrors(version: string | undefined): boolean {
  return version !== undefined && isKnownVendorIVersion(version) && version >= VENDOR_I_JSON_ERRORS_FROM;
}

const TITLES: Readonly<Record<number, readonly [string, string]>> = {
  400: ['Bad Request', 'bad_request'],
  404: ['Not Found', 'not_found'],
  429: ['Too Many Requests', 'rate_limited'],
  500: ['Internal Server Error', 'internal_error'],
  502: ['Bad Gateway', 'bad_gateway'],
  503: ['Service Unavailable', 'service_unavailable'],
  504: ['Gateway Timeout', 'timeout'],
};

/** The vendor's title and error code for an HTTP status. */
export function vendorIStatusTitle(status: number): { title: string; errorCode: string } {
  const [title, errorCode] = TITLES[status] ?? ['Error', 'error'];
  return { title, errorCode };
}

function vendorIError(
  status: number,
  errorCode: string,
  message: string,
  request: Pick<MirrorRequest, 'headers' | 'query'>,
): MirrorReply {
  const title = STATUS_CODES[status] ?? 'Error';
  const requestId = uuidRequestId();
  if (!vendorIJsonErrors(vendorIRequestedVersion(request))) {
    return textReply(status, `${title}: ${message}`, 'text/plain; charset=utf-8', {
      'x-request-id': requestId,
    });
  }
  return jsonReply(
    status,
    { error_code: errorCode, title, message, request_id: requestId },
    { 'x-request-id': requestId },
  );
}

/**
 * vendor_i: the key in `X-API-Key` (or where else the vendor takes it, `VENDOR_I_KEY`), beside the version header (`vendor_i-Version`, or the query
 * `vendor_i_version`), which stays on the request. Key refusals are 401 (also at the handshake): JSON
 * `{error_code, title, message, request_id}` from version 2026-03-01, plain `Title: Message` text before.
 */
export const vendorIAccess: MirrorAccess = {
  ...vendorDoor('vendor_i', VENDOR_I_KEY, {
    outOfCredit: (message, request) => vendorIError(402, 'insufficient_credits', message, request),
    key: (message, _kind, request) => vendorIError(401, 'invalid_api_key', message, request),
  }),
  // Past an org's limit (429): the vendor's own rate-limit code.
  fail: (status, message, request) =>
    vendorIError(
      status,
      status === 429
        ? vendorIStatusTitle(status).errorCode
        : status >= 500
          ? 'internal_error'
          : 'bad_request',
      message,
      request,
    ),
  notFound: () => textReply(404, '404 page not found'),
  socket: { refusal: 'handshake' },
};
