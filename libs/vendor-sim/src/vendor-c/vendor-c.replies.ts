import {
  checkFailureReply,
  problemBody,
  schemaIssuesBody,
  startsWithId3,
  statusProblem,
  type SchemaIssue,
  type VendorCAudio,
  type VendorCProblem,
} from '@router/vendor-c';
import type { AudioSpec } from '../kit/audio/audio-spec';
import type { CharTiming, Take, TakePiece } from '../kit/audio/take';
import type { FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';

/** The simulator's glue between vendor_c's wire (from the vendor folder) and its fake takes and faults. */

export function sendVendorCProblem(exchange: HttpExchange, problem: VendorCProblem): void {
  exchange.sendJson(problem.status, problemBody(problem));
}

export function sendSchemaIssues(exchange: HttpExchange, issues: readonly SchemaIssue[]): void {
  exchange.sendJson(422, schemaIssuesBody(issues));
}

export function sendCheckFailure(
  exchange: HttpExchange,
  failure: { problem: VendorCProblem } | { issues: SchemaIssue[] },
): void {
  const { status, body } = checkFailureReply(failure);
  exchange.sendJson(status, body);
}

/** An injected fault in the vendor's words. */
export function vendorCFaultProblem(fault: FaultSpec): VendorCProblem {
  const status = fault.status ?? 500;
  return statusProblem(status, {
    ...(fault.code !== undefined ? { code: fault.code } : {}),
    message: fault.message ?? `Simulated failure (${status})`,
  });
}

/** The take's encoding for a format, with the ID3 tag where the vendor starts a stream with one. */
export function takeSpec(audio: VendorCAudio, firstOfStream: boolean): AudioSpec {
  return startsWithId3(audio, firstOfStream) ? { ...audio, id3: true } : audio;
}

/** The characters whose speech starts within this piece (the last piece takes any left). */
export function charsInPiece(take: Take, piece: TakePiece): CharTiming[] {
  return take.characters.filter((c) => c.startMs >= piece.startMs && (piece.last || c.startMs < piece.endMs));
}
