import { randomBytes } from 'node:crypto';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { KeyCheck } from '../kit/sim-keys';

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

export function vendorCRequestId(): string {
  return randomBytes(16).toString('hex');
}

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

export function sendVendorCProblem(exchange: HttpExchange, problem: VendorCProblem): void {
  exchange.sendJson(problem.status, problemBody(problem));
}

export function sendSchemaIssues(exchange: HttpExchange, issues: readonly SchemaIssue[]): void {
  exchange.sendJson(422, { detail: issues });
}

export function sendCheckFailure(
  exchange: HttpExchange,
  failure: { problem: VendorCProblem } | { issues: SchemaIssue[] },
): void {
  if ('problem' in failure) sendVendorCProblem(exchange, failure.problem);
  else sendSchemaIssues(exchange, failure.issues);
}

/** A wrong key is a 400 `authentication_error`; no key at all is a 401. */
export function authProblem(check: Exclude<KeyCheck, 'ok'>): VendorCProblem {
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

const FAULT_CODES: Readonly<Record<number, [string, string]>> = {
  400: ['invalid_request', 'validation_error'],
  401: ['quota_exceeded', 'authentication_error'],
  402: ['quota_exceeded', 'payment_required'],
  404: ['not_found', 'not_found_error'],
  429: ['too_many_concurrent_requests', 'rate_limit_error'],
  503: ['system_busy', 'service_unavailable'],
};

export function vendorCFaultProblem(fault: FaultSpec): VendorCProblem {
  const status = fault.status ?? 500;
  const [code, type] = FAULT_CODES[status] ?? ['internal_server_error', 'server_error'];
  return {
    status,
    code: fault.code ?? code,
    type,
    message: fault.message ?? `Simulated failure (${status})`,
  };
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
