import type { OutgoingHttpHeaders } from 'node:http';
import { type FaultSpec, GARBAGE_BYTES } from '../faults';
import type { Pacing } from '../pacing';
import type { PlayOutcome } from '../play-take';
import type { BegunTake } from '../sim-vendor';
import { sleep } from '../sleep';
import type { HttpExchange } from './http-exchange';

export interface OneShotReply {
  /** The whole answer; the take's own bytes where absent. */
  readonly body?: Buffer;
  /** The take's own content type where absent. */
  readonly contentType?: string;
  readonly headers?: OutgoingHttpHeaders;
  /** The vendor's own error answer to an injected error. */
  readonly sendError: (fault: FaultSpec) => void;
}

/**
 * Answers a one-shot synthesis (the whole take in one 200 body) after the time the vendor would need to make
 * it (`ttfaMs` + `factor` × the take's length), applying an injected fault: an error or a cut before any
 * byte, a stall before the response, or after `afterBytes` of the body a stall or a cut (an error cannot
 * follow bytes already sent, so it becomes a cut there); `end` answers the first `afterBytes` bytes as if
 * they were the whole body, `garbage` those and `GARBAGE_BYTES`; `trickle` sends the rest in ten slices
 * `trickleMs` apart.
 */
export async function playOneShot(
  exchange: HttpExchange,
  { take, fault }: BegunTake,
  pacing: Pacing,
  reply: OneShotReply,
): Promise<PlayOutcome> {
  const { signal } = exchange;
  const body = reply.body ?? take.bytes;
  const contentType = reply.contentType ?? take.contentType;
  const after = fault?.afterBytes ?? 0;
  if (fault?.kind === 'stall' && after === 0) {
    if (!(await sleep(fault.stallMs ?? Infinity, signal))) return 'gone';
  }
  if (!(await sleep(pacing.ttfaMs + pacing.factor * take.durationMs, signal))) return 'gone';
  if (fault?.kind === 'end') {
    exchange.send(200, contentType, body.subarray(0, after), reply.headers);
    return 'ended';
  }
  if (fault?.kind === 'garbage') {
    exchange.send(200, contentType, Buffer.concat([body.subarray(0, after), GARBAGE_BYTES]), reply.headers);
    return 'ended';
  }
  if (fault?.kind === 'trickle') {
    exchange.res.writeHead(200, {
      ...reply.headers,
      'content-type': contentType,
      'content-length': body.length,
    });
    const slice = Math.ceil(body.length / 10);
    await exchange.write(body.subarray(0, after));
    for (let at = after; at < body.length; at += slice) {
      if (!(await sleep(fault.trickleMs ?? 250, signal))) return 'gone';
      await exchange.write(body.subarray(at, at + slice));
    }
    exchange.end();
    return 'done';
  }
  if (fault && after === 0 && fault.kind !== 'stall') {
    if (fault.kind === 'error') {
      reply.sendError(fault);
      return 'failed';
    }
    exchange.destroy();
    return 'cut';
  }
  if (!fault || after === 0 || after >= body.length) {
    exchange.send(200, contentType, body, reply.headers);
    return 'done';
  }
  exchange.res.writeHead(200, {
    ...reply.headers,
    'content-type': contentType,
    'content-length': body.length,
  });
  await exchange.write(body.subarray(0, after));
  if (fault.kind !== 'stall') {
    exchange.destroy();
    return 'cut';
  }
  if (!(await sleep(fault.stallMs ?? Infinity, signal))) return 'gone';
  await exchange.write(body.subarray(after));
  exchange.end();
  return 'done';
}
