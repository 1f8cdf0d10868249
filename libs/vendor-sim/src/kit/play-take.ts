import { takePieces, type Take, type TakePiece } from './audio/take';
import { type FaultSpec, GARBAGE_BYTES } from './faults';
import type { Pacing } from './pacing';
import { sleep } from './sleep';

/** Where a streamed take goes: an HTTP body (raw, SSE, JSON lines) or a socket's messages. */
export interface StreamTarget {
  /** Sends the response head where the protocol has one; called once, just before the first audio. */
  open(): void;
  /** Sends one piece in the protocol's framing; resolves when the transport can take more. */
  send(piece: TakePiece): Promise<void>;
  /** An injected error: `started` is false before `open`, where HTTP can still answer with a status. */
  fail(fault: FaultSpec, started: boolean): void | Promise<void>;
  /** Drops the connection (no end marker, no close frame). */
  cut(): void;
  /**
   * Ends the body as a whole one would end but without the end marker, after the first half of `partial`'s
   * frame (the rest of the piece the fault fell in; none when it fell on a piece's end), then `garbage` where
   * given (the `garbage` fault). Absent where there is no body to end (a socket): those faults cut instead.
   */
  end?(partial: TakePiece | undefined, garbage?: Buffer): void | Promise<void>;
  /** Aborted when the client is gone: the take stops. */
  readonly signal: AbortSignal;
}

export type PlayOutcome = 'done' | 'failed' | 'cut' | 'ended' | 'gone';

/**
 * Plays a take into a target: the first audio after `ttfaMs`, then each piece when playback would reach it
 * (scaled by `factor`), with the injected fault applied before any audio or once `afterBytes` were sent
 * (a fault past the take's end applies before the end marker). The caller sends the end marker on `done`.
 */
export async function playTake(
  take: Take,
  target: StreamTarget,
  pacing: Pacing,
  fault?: FaultSpec,
): Promise<PlayOutcome> {
  const { signal } = target;
  const after = fault?.afterBytes ?? 0;
  let pending = fault;
  // A trickle is no fault to apply at a point: it slows every piece from `afterBytes` on.
  const trickleMs = fault?.kind === 'trickle' ? (fault.trickleMs ?? 250) : 0;
  if (fault?.kind === 'trickle') pending = undefined;
  if (pending && after === 0) {
    if (pending.kind === 'stall') {
      if (!(await sleep(pending.stallMs ?? Infinity, signal))) return 'gone';
      pending = undefined;
    } else {
      if (!(await sleep(pacing.ttfaMs, signal))) return 'gone';
      return applyFault(pending, target, false);
    }
  }
  const start = Date.now();
  if (!(await sleep(pacing.ttfaMs, signal))) return 'gone';
  target.open();
  let sent = 0;
  let stalledMs = 0;
  for (const piece of takePieces(take, pacing.chunkMs)) {
    const due = start + stalledMs + pacing.ttfaMs + pacing.factor * piece.startMs;
    if (!(await sleep(due - Date.now(), signal))) return 'gone';
    if (signal.aborted) return 'gone';
    if (trickleMs > 0 && sent >= after) {
      if (!(await sleep(trickleMs, signal))) return 'gone';
      stalledMs += trickleMs;
    }
    let rest = piece;
    if (pending && sent + piece.bytes.length >= after) {
      const head = after - sent;
      if (head > 0) {
        await target.send(slice(piece, 0, head));
        sent += head;
      }
      if (pending.kind !== 'stall') {
        const partial = head < piece.bytes.length ? slice(piece, head, piece.bytes.length) : undefined;
        return applyFault(pending, target, true, partial);
      }
      const stallStart = Date.now();
      if (!(await sleep(pending.stallMs ?? Infinity, signal))) return 'gone';
      stalledMs += Date.now() - stallStart;
      pending = undefined;
      if (head >= piece.bytes.length) continue;
      rest = slice(piece, head, piece.bytes.length);
    }
    await target.send(rest);
    sent += rest.bytes.length;
    if (signal.aborted) return 'gone';
  }
  if (pending) {
    if (pending.kind !== 'stall') return applyFault(pending, target, true);
    if (!(await sleep(pending.stallMs ?? Infinity, signal))) return 'gone';
  }
  return 'done';
}

async function applyFault(
  fault: FaultSpec,
  target: StreamTarget,
  started: boolean,
  partial?: TakePiece,
): Promise<PlayOutcome> {
  if ((fault.kind === 'end' || fault.kind === 'garbage') && target.end) {
    if (!started) target.open();
    if (fault.kind === 'end') await target.end(partial);
    else await target.end(undefined, GARBAGE_BYTES);
    return 'ended';
  }
  if (fault.kind === 'cut' || fault.kind === 'end' || fault.kind === 'garbage') {
    target.cut();
    return 'cut';
  }
  await target.fail(fault, started);
  return 'failed';
}

/** Part of a piece, its times scaled to the bytes kept (close enough for a piece cut by a fault). */
function slice(piece: TakePiece, from: number, to: number): TakePiece {
  const span = piece.endMs - piece.startMs;
  const length = piece.bytes.length || 1;
  return {
    bytes: piece.bytes.subarray(from, to),
    startMs: piece.startMs + (span * from) / length,
    endMs: piece.startMs + (span * to) / length,
    index: piece.index,
    last: piece.last && to >= piece.bytes.length,
  };
}
