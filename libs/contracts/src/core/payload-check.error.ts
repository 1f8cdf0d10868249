/** Which part of a message a checker was looking at. */
export type PayloadPart = 'request' | 'reply' | 'header' | 'trailer' | 'event';

/**
 * Thrown by a checker deep inside a value; carries the path from the root so the message can name the field.
 * Never carries the offending value itself: payloads may hold sentence text or keys.
 */
export class CheckFailure extends Error {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly got: string,
  ) {
    super(`${path || 'value'} ${expected} (got ${got})`);
    this.name = 'CheckFailure';
  }
}

export interface PayloadCheckDetails {
  subject: string;
  part: PayloadPart;
  field: string;
}

/** A payload that does not match its contract; `code` lets the bus carry it across the wire unchanged. */
export class PayloadCheckError extends Error {
  readonly code = 'invalid_payload';
  readonly details: PayloadCheckDetails;

  constructor(subject: string, part: PayloadPart, failure: CheckFailure) {
    const where = failure.path ? `field "${failure.path}"` : part;
    super(`invalid ${part} on ${subject}: ${where} ${failure.expected} (got ${failure.got})`);
    this.name = 'PayloadCheckError';
    this.details = { subject, part, field: failure.path };
  }
}

/** A short description of a value's type for error messages (never the value). */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Uint8Array) return 'bytes';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  return typeof value;
}
