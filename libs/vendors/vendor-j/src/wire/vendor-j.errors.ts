import { readRefusal, stringAt } from '@router/vendors-core';

/*
 * vendor_j's refusals, both directions: `{error: {code, message, status, details?}}` for every status, built
 * by a server (the simulator, the mirror) and read by the adapter.
 */

export interface VendorJProblem {
  readonly code: number;
  readonly status: string;
  readonly message: string;
  readonly details?: readonly Record<string, unknown>[];
}

const ERROR_INFO_TYPE = 'type.vendor-j.invalid/rpc.ErrorInfo';

/** A typed `details` entry naming why a call was refused (`API_KEY_INVALID`, `CREDENTIALS_MISSING`, ...). */
export function vendorJErrorInfo(reason: string): Record<string, unknown> {
  return { '@type': ERROR_INFO_TYPE, reason, domain: 'vendor-j.invalid' };
}

export function vendorJErrorBody(problem: VendorJProblem): { error: Record<string, unknown> } {
  return {
    error: {
      code: problem.code,
      message: problem.message,
      status: problem.status,
      ...(problem.details ? { details: problem.details } : {}),
    },
  };
}

export function invalidArgument(message: string): VendorJProblem {
  return { code: 400, status: 'INVALID_ARGUMENT', message };
}

/** A wrong key is a 400 with reason `API_KEY_INVALID`; no key at all is a 403. */
export function vendorJAuthProblem(check: 'missing' | 'invalid'): VendorJProblem {
  if (check === 'missing') {
    return {
      code: 403,
      status: 'PERMISSION_DENIED',
      message:
        "Method doesn't allow unregistered callers. Please use an API key or other form of API authentication.",
      details: [vendorJErrorInfo('CREDENTIALS_MISSING')],
    };
  }
  return {
    code: 400,
    status: 'INVALID_ARGUMENT',
    message: 'API key not valid. Please pass a valid API key.',
    details: [vendorJErrorInfo('API_KEY_INVALID')],
  };
}

/** A model the vendor does not have, or not for that method under the API version called. */
export function vendorJModelNotFound(
  model: string,
  call?: { verb: string; version: string },
): VendorJProblem {
  return {
    code: 404,
    status: 'NOT_FOUND',
    message:
      call === undefined
        ? `models/${model} is not found`
        : `models/${model} is not found for API version ${call.version}, or is not supported for ${call.verb}.`,
  };
}

/** The front end's answer to a path (or model method) the vendor does not have: an empty HTML 404. */
export const VENDOR_J_NOT_FOUND = { contentType: 'text/html; charset=UTF-8', body: '' } as const;

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The vendor's status name for an HTTP code (one it has no name for: `INTERNAL` or `INVALID_ARGUMENT`, by class). */
export function vendorJStatusName(code: number): string {
  return STATUS_NAMES[code] ?? (code >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
}

/** The vendor's refusal text: `error.message`, else the body. */
export function vendorJErrorMessage(body: string): string {
  return readRefusal(body, (json) => stringAt(json, 'error', 'message'));
}
