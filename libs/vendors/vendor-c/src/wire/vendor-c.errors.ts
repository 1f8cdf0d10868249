import { hexRequestId, readRefusal, stringAt } from '@router/vendors-core';

/*
 * vendor_c's refusals, both directions: the bodies a server (the simulator, the mirror) answers with, and
 * the reading of them a client (the adapter) turns into an error message.
 */

/** A vendor_c refusal with a `detail` object (the shape every non-schema error has). */
export interface VendorCProblem {
  readonly status: number;
  /** `detail.status`, the field clients switch on (`voice_not_found`, `invalid_api_key` …). */
  readonly code: string;
  readonly type: string;
  readonly message: string;
  readonly param?: string;
}

/** One pydantic-style schema complaint (422). */
export interface SchemaIssue {
  readonly loc: readonly (string | number)[];
  readonly msg: string;
  readonly type: string;
}

export type CheckResult<T> =
  { ok: true; value: T } | { ok: false; problem: VendorCProblem } | { ok: false; issues: SchemaIssue[] };

export const vendorCRequestId = hexRequestId;

export function problemBody(problem: VendorCProblem): unknown {
  return {
    detail: {
      type: problem.type,
      code: problem.code,
      message: problem.message,
      status: problem.code,
      request_id: vendorCRequestId(),
      ...(problem.param ? { param: problem.param } : {}),
    },
  };
}

/** The 422 body for schema complaints. */
export function schemaIssuesBody(issues: readonly SchemaIssue[]): unknown {
  return { detail: issues };
}

/** The status and body of a failed check, whichever kind it is. */
export function checkFailureReply(failure: { problem: VendorCProblem } | { issues: SchemaIssue[] }): {
  status: number;
  body: unknown;
} {
  return 'problem' in failure
    ? { status: failure.problem.status, body: problemBody(failure.problem) }
    : { status: 422, body: schemaIssuesBody(failure.issues) };
}

/** The refusal text a client reads: `detail.message`, a schema error's `loc: msg` list, a plain `detail`, else the body. */
export function vendorCErrorMessage(body: string): string {
  return readRefusal(body, ({ detail }) => {
    if (!Array.isArray(detail)) return stringAt(detail) ?? stringAt(detail, 'message');
    return detail
      .map((issue: { loc?: unknown; msg?: unknown }) =>
        Array.isArray(issue.loc) ? `${issue.loc.join('.')}: ${String(issue.msg)}` : String(issue.msg),
      )
      .join('; ');
  });
}

/** A wrong key is a 400 `authentication_error`; no key at all is a 401. */
export function authProblem(check: 'missing' | 'invalid'): VendorCProblem {
  return check === 'missing'
    ? {
        status: 401,
        code: 'needs_authorization',
        type: 'authentication_error',
        message: 'Neither an authorization header nor a vendor_c-api-key header was received.',
        param: 'api_key',
      }
    : {
        status: 400,
        code: 'invalid_api_key',
        type: 'authentication_error',
        message: 'Invalid API key',
        param: 'api_key',
      };
}

export function voiceNotFound(voiceId: string): VendorCProblem {
  return {
    status: 400,
    code: 'voice_not_found',
    type: 'validation_error',
    message: `A voice for the voice_id ${voiceId} was not found.`,
    param: 'voice_id',
  };
}

/** A professional clone can be used only once its fine-tuning has finished. */
export function voiceNotFineTuned(voiceId: string): VendorCProblem {
  return {
    status: 400,
    code: 'voice_not_fine_tuned',
    type: 'validation_error',
    message: `The voice ${voiceId} has not finished fine-tuning yet.`,
    param: 'voice_id',
  };
}

/** The voice's problem for speaking: unknown, or a clone still in training; undefined when it can speak. */
export function voiceProblem(
  voice: { category: string; fine_tuning: { state: Record<string, string> } } | undefined,
  voiceId: string,
): VendorCProblem | undefined {
  if (!voice) return voiceNotFound(voiceId);
  if (voice.category === 'professional' && !Object.values(voice.fine_tuning.state).includes('fine_tuned')) {
    return voiceNotFineTuned(voiceId);
  }
  return undefined;
}

export function dictionaryNotFound(dictionaryId: string): VendorCProblem {
  return {
    status: 404,
    code: 'pronunciation_dictionary_not_found',
    type: 'not_found',
    message: `A pronunciation dictionary with the id ${dictionaryId} was not found.`,
    param: 'pronunciation_dictionary_id',
  };
}

/** The `detail.status` and `detail.type` the vendor pairs with each HTTP status it fails with. */
const STATUS_CODES: Readonly<Record<number, [string, string]>> = {
  400: ['invalid_request', 'validation_error'],
  401: ['quota_exceeded', 'authentication_error'],
  402: ['quota_exceeded', 'payment_required'],
  404: ['not_found', 'not_found_error'],
  429: ['too_many_concurrent_requests', 'rate_limit_error'],
  503: ['system_busy', 'service_unavailable'],
};

/** A failure at `status` in the vendor's words; `code` and `message` replace the usual ones when given. */
export function statusProblem(status: number, given: { code?: string; message: string }): VendorCProblem {
  const [code, type] = STATUS_CODES[status] ?? ['internal_server_error', 'server_error'];
  return { status, code: given.code ?? code, type, message: given.message };
}

/** A socket error message: `{message, error, code}` where `code` is the close code that follows. */
export function socketError(
  problem: Pick<VendorCProblem, 'code' | 'message' | 'status'>,
  contextId?: string,
): Record<string, unknown> {
  return {
    message: problem.message,
    error: problem.code,
    code: closeCodeFor(problem.status),
    ...(contextId !== undefined ? { context_id: contextId } : {}),
  };
}

export function closeCodeFor(status: number): number {
  return status >= 500 ? 1011 : 1008;
}
