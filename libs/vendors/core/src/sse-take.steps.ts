import { parseJsonObject } from './upstream-parse';
import { readSseTake, type AnswerReader, type SseTakeStep } from './upstream-http';
import { vendorFailure, vendorMalformed } from './vendor-errors';
import type { VendorId } from './vendor-id';

/**
 * What the events of most vendors' streamed takes read as besides their own kinds: audio (possibly empty),
 * an error the vendor reports after the first audio (its status, message and, where it has one, its code),
 * or an event that is not what the vendor sends (`what` names it; an event without audio when left out).
 */
export type StreamEventReading =
  | { readonly kind: 'audio'; readonly audio: Buffer }
  | {
      readonly kind: 'error';
      readonly status: number | undefined;
      readonly message: string;
      readonly code?: string | undefined;
    }
  | { readonly kind: 'malformed'; readonly what?: string };

/**
 * The reader of a take streamed as server-sent events whose data are JSON objects (data that is not one is the
 * vendor's malformed answer), each read by the vendor's `step` with the event's name as it arrives; the take
 * ends as `readSseTake` says, a stream without its `endMarker` failing as a cut.
 */
export function jsonSseTake(
  vendor: VendorId,
  endMarker: string,
  step: (event: string, data: Record<string, unknown>) => SseTakeStep,
): AnswerReader {
  return (body) =>
    readSseTake(
      vendor,
      body,
      ({ event, data }) => step(event, parseJsonObject<Record<string, unknown>>(vendor, data, 'an event')),
      endMarker,
    );
}

/**
 * The step of a shared reading: audio passed on (nothing for an empty one), an error thrown as the vendor's
 * failure (a 502 where it gave no status), a malformed event as the vendor's malformed answer.
 */
export function streamEventStep(vendor: VendorId, reading: StreamEventReading): SseTakeStep {
  switch (reading.kind) {
    case 'audio':
      return { events: reading.audio.length > 0 ? [{ kind: 'audio', data: reading.audio }] : [] };
    case 'error':
      throw vendorFailure(vendor, reading.status ?? 502, reading.message, reading.code);
    case 'malformed':
      throw vendorMalformed(vendor, reading.what ?? 'an event without audio');
  }
}
