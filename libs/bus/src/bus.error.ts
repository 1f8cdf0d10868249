/** Codes the bus itself raises; a handler's own error codes pass through unchanged. */
export const BusErrorCode = {
  /** No reply or stream frame before the deadline (a hung or dead peer, or the broker unreachable). */
  timeout: 'bus_timeout',
  /** The broker was not reachable in time (never connected, or reconnecting). */
  unavailable: 'bus_unavailable',
  /** Nobody serves the subject. */
  noResponders: 'bus_no_responders',
  /** The bus was closed (here or, for a stream, on the server). */
  closed: 'bus_closed',
  /** The requester cancelled the stream (here: the consumer stopped or its signal aborted). */
  cancelled: 'bus_cancelled',
  /** A peer broke the stream protocol (lost or reordered frame, unknown frame kind). */
  protocol: 'bus_protocol_error',
  /** The broker refused or failed the operation (payload too big, permissions, connection lost). */
  transport: 'bus_transport_error',
  /** A payload did not match its contract (PayloadCheckError's code). */
  invalidPayload: 'invalid_payload',
  /** A handler failed with an error that carries no code of its own. */
  internal: 'internal',
} as const;

/** What crosses the wire for a failure. `details` is JSON. */
export interface BusErrorJSON {
  code: string;
  message: string;
  details?: unknown;
}

/** A failure raised by the bus on this side (timeouts, cancels, closed bus …). */
export class BusError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BusError';
  }

  toJSON(): BusErrorJSON {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** The other side's error, rebuilt from its JSON; `code` and `details` are what its handler threw. */
export class BusRemoteError extends BusError {
  constructor(json: BusErrorJSON) {
    super(json.code, json.message, json.details);
    this.name = 'BusRemoteError';
  }

  static fromJSON(value: unknown): BusRemoteError {
    if (typeof value === 'object' && value !== null) {
      const { code, message, details } = value as Record<string, unknown>;
      if (typeof code === 'string' && typeof message === 'string') {
        return new BusRemoteError(details === undefined ? { code, message } : { code, message, details });
      }
    }
    return new BusRemoteError({ code: BusErrorCode.protocol, message: 'malformed error from peer' });
  }
}

const NOT_DETAILS = new Set(['code', 'message', 'name', 'stack', 'cause', 'details']);

function isJsonScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * Serializes what a handler threw. An error with a string `code` keeps its code and message; its `details`
 * (or, without one, its own scalar fields such as a status) travel along, so the requester can rebuild a
 * domain error. Anything else becomes `internal`.
 */
export function toBusErrorJSON(err: unknown): BusErrorJSON {
  if (err instanceof BusError) return err.toJSON();
  if (typeof err === 'object' && err !== null) {
    const record = err as Record<string, unknown>;
    const message = typeof record['message'] === 'string' ? record['message'] : 'handler failed';
    if (typeof record['code'] === 'string') {
      let details: unknown = record['details'];
      if (details === undefined) {
        const scalars = Object.entries(record).filter(([k, v]) => !NOT_DETAILS.has(k) && isJsonScalar(v));
        if (scalars.length > 0) details = Object.fromEntries(scalars);
      }
      return details === undefined
        ? { code: record['code'], message }
        : { code: record['code'], message, details };
    }
    return { code: BusErrorCode.internal, message };
  }
  return { code: BusErrorCode.internal, message: 'handler failed' };
}

/**
 * The other end of a request or stream is gone (killed, cut off): nobody serves its subject, or its stream went
 * silent. Local errors only: a peer that answered with an error of its own is there.
 */
export function isPeerGone(error: unknown): boolean {
  return (
    error instanceof BusError &&
    !(error instanceof BusRemoteError) &&
    (error.code === BusErrorCode.timeout || error.code === BusErrorCode.noResponders)
  );
}
