import type { OutgoingHttpHeaders } from 'node:http';
import type { TakePiece } from '../audio/take';
import type { FaultSpec } from '../faults';
import type { Pacing } from '../pacing';
import { playTake, type PlayOutcome } from '../play-take';
import type { BegunTake } from '../sim-vendor';
import type { HttpExchange } from './http-exchange';

/** Response headers, or a function that makes them as the response opens (just before the first audio). */
export type OpenHeaders = OutgoingHttpHeaders | (() => OutgoingHttpHeaders);

const headersAt = (headers: OpenHeaders | undefined): OutgoingHttpHeaders | undefined =>
  typeof headers === 'function' ? headers() : headers;

export interface ChunkedReply {
  /** The take's own content type where absent. */
  readonly contentType?: string;
  readonly headers?: OpenHeaders;
  /** How one piece goes on the wire; the piece's bytes where absent (raw audio). */
  readonly frame?: (piece: TakePiece) => Buffer | string;
  /**
   * The frame that reports an injected error once the body started, where the framing can carry one (a JSON
   * line); absent for raw audio, which cannot.
   */
  readonly errorFrame?: (fault: FaultSpec) => Buffer | string;
  /** The vendor's own error answer to an injected error before any byte. */
  readonly sendError: (fault: FaultSpec) => void;
}

/**
 * Streams a take as one chunked 200 body, each piece as it is made. Once it started, an injected error is the
 * error frame and the end of the body where the framing has one; a raw body cannot carry an error, so the
 * connection drops, as a cut does. Before the first byte the vendor's own error answer goes out instead.
 */
export async function playChunked(
  exchange: HttpExchange,
  { take, fault }: BegunTake,
  pacing: Pacing,
  reply: ChunkedReply,
): Promise<PlayOutcome> {
  const frame = reply.frame ?? ((piece: TakePiece) => piece.bytes);
  const outcome = await playTake(
    take,
    {
      signal: exchange.signal,
      open: () => exchange.open(200, reply.contentType ?? take.contentType, headersAt(reply.headers)),
      send: (piece) => exchange.write(frame(piece)),
      fail: async (f, started) => {
        if (!started) return reply.sendError(f);
        if (!reply.errorFrame) return exchange.destroy();
        await exchange.write(reply.errorFrame(f));
        exchange.end();
      },
      cut: () => exchange.destroy(),
      end: (partial, garbage) => endEarly(exchange, partial ? [frame(partial)] : [], garbage),
    },
    pacing,
    fault,
  );
  if (outcome === 'done') exchange.end();
  return outcome;
}

/** One server-sent event; without a name it is the default `message` event. */
export function sseEvent(data: unknown, name?: string): string {
  return `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

export interface SseReply {
  readonly headers?: OpenHeaders;
  /** The event or events that carry one piece, written in order. */
  readonly events: (piece: TakePiece) => string | readonly string[];
  /** The event that reports an injected error once the stream started. */
  readonly errorEvent: (fault: FaultSpec) => string;
  /** The event that ends a complete take. */
  readonly doneEvent: () => string;
  /** The vendor's own error answer to an injected error before the first event. */
  readonly sendError: (fault: FaultSpec) => void;
}

/**
 * Streams a take as server-sent events (`text/event-stream`), each piece as it is made. Before the first
 * event an injected error is still a plain HTTP error answer; after it, the stream carries the error as one
 * more event and ends. A complete take ends with the done event.
 */
export async function playSse(
  exchange: HttpExchange,
  { take, fault }: BegunTake,
  pacing: Pacing,
  reply: SseReply,
): Promise<PlayOutcome> {
  const outcome = await playTake(
    take,
    {
      signal: exchange.signal,
      open: () => exchange.open(200, 'text/event-stream', headersAt(reply.headers)),
      send: async (piece) => {
        const events = reply.events(piece);
        for (const event of typeof events === 'string' ? [events] : events) await exchange.write(event);
      },
      fail: async (f, started) => {
        if (!started) return reply.sendError(f);
        await exchange.write(reply.errorEvent(f));
        exchange.end();
      },
      cut: () => exchange.destroy(),
      end: (partial, garbage) => {
        const events = partial ? reply.events(partial) : [];
        return endEarly(exchange, typeof events === 'string' ? [events] : events, garbage);
      },
    },
    pacing,
    fault,
  );
  if (outcome !== 'done') return outcome;
  await exchange.write(reply.doneEvent());
  exchange.end();
  return outcome;
}

/** Ends the body early as a whole one ends, after the first half of these frames' bytes (the `end` fault). */
export async function endEarly(
  exchange: HttpExchange,
  frames: readonly (Buffer | string)[],
  garbage?: Buffer,
): Promise<void> {
  const bytes = Buffer.concat(frames.map((f) => (typeof f === 'string' ? Buffer.from(f) : f)));
  if (bytes.length > 0) await exchange.write(bytes.subarray(0, Math.ceil(bytes.length / 2)));
  if (garbage) await exchange.write(garbage);
  exchange.end();
}
