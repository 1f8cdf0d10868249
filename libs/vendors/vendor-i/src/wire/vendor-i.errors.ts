import { randomUUID } from 'node:crypto';
import { readRefusal, stringAt } from '@router/vendors-core';
import { vendorIJsonErrors } from './vendor-i.access';

/*
 * vendor_i's refusals, both directions: the body a server writes for a problem (JSON or plain text by API
 * version), and the reading of it a client turns into an error message.
 */

export interface VendorIProblem {
  readonly status: number;
  readonly title: string;
  readonly message: string;
  readonly errorCode: string;
  readonly headers?: Record<string, string>;
}

export const VENDOR_I_DOC_URL = 'https://docs.vendor-i.invalid/errors';

/** A refusal as written: its content type and body (text, or JSON to serialise). */
export type VendorIErrorReply =
  | { readonly kind: 'text'; readonly body: string }
  | { readonly kind: 'json'; readonly body: Record<string, unknown> };

/** The vendor's error body: JSON from 2026-03-01, plain `Title: Message` text for older versions. */
export function vendorIErrorReply(
  problem: VendorIProblem,
  version: string | undefined,
  requestId: string,
): VendorIErrorReply {
  if (!vendorIJsonErrors(version)) return { kind: 'text', body: `${problem.title}: ${problem.message}` };
  return {
    kind: 'json',
    body: {
      status_code: problem.status,
      error_code: problem.errorCode,
      title: problem.title,
      message: problem.message,
      request_id: requestId,
      doc_url: VENDOR_I_DOC_URL,
    },
  };
}

/** The 401 body for a missing or wrong key: `{error_code, title, message, request_id}`, or its plain-text form. */
export function vendorIAuthBody(check: 'missing' | 'invalid', version: string | undefined): unknown {
  const title = 'Unauthorized';
  const message = check === 'missing' ? 'No API key was provided.' : 'Invalid API key.';
  if (!vendorIJsonErrors(version)) return `${title}: ${message}`;
  return { error_code: 'invalid_api_key', title, message, request_id: randomUUID() };
}

/** A request without a version the vendor serves. */
export function vendorIVersionProblem(version: string | undefined): VendorIProblem {
  return {
    status: 400,
    title: 'Invalid version',
    message:
      version === undefined
        ? 'The vendor_i-Version header is required'
        : `vendor_i-Version ${version} is not a supported API version`,
    errorCode: 'invalid_version',
  };
}

/** The vendor's title and error code for an HTTP status (beside its error shape, in the access). */
export { vendorIStatusTitle } from './vendor-i.access';

/** The vendor's own code for a refusal: `error_code` of a JSON error (a plain-text one has none). */
export function vendorIErrorCode(body: string): string | undefined {
  try {
    return stringAt(JSON.parse(body), 'error_code');
  } catch {
    return undefined;
  }
}

/** The vendor's refusal text: `message` of a JSON error, else the plain `Title: Message` body. */
export function vendorIErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'message') ?? stringAt(json, 'title'));
}
