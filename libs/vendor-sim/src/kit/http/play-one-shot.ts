import type { OutgoingHttpHeaders } from 'node:http';
import type { FaultSpec } from '../faults';
import type { Pacing } from '../pacing';
import type { PlayOutcome } from '../play-take';
import { sleep } from '../sleep';
import type { HttpExchange } from './http-exchange';

export interface OneShotReply {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
  readonly headers?: OutgoingHttpHeaders;
}

/**
 * Answers a one-shot synthesis (the whole take in one body) after the time the vendor would need to make it
 * (`ttfaMs` + `factor` × the take's length), applying an injected fault: an error or a cut before any byte,
 * a stall before the response, or after `afterBytes` of the body a stall or a cut (an error cannot follow
 * bytes already sent, so it becomes a cut there).
 */
export async function playOneShot(
  exchange: HttpExchange,
  reply: OneShotReply,
  durationMs: number,
  pacing: Pacing,
  fault: FaultSpec | undefined,
  sendError: (fault: FaultSpec) => void,
): Promise<PlayOutcome> {
  const { signal } = exchange;
  const after = fault?.afterBytes ?? 0;
  if (fault?.kind === 'stall' && after === 0) {
    if (!(await sleep(fault.stallMs ?? Infinity, signal))) return 'gone';
  }
  if (!(await sleep(pacing.ttfaMs + pacing.factor * durationMs, signal))) return 'gone';
  if (fault && after === 0 && fault.kind !== 'stall') {
    if (fault.kind === 'error') {
      sendError(fault);
      return 'failed';
    }
    exchange.destroy();
    return 'cut';
  }
  if (!fault || after === 0 || after >= reply.body.length) {
    exchange.send(reply.status, reply.contentType, reply.body, reply.headers);
    return 'done';
  }
  exchange.res.writeHead(reply.status, {
    ...reply.headers,
    'content-type': reply.contentType,
    'content-length': reply.body.length,
  });
  await exchange.write(reply.body.subarray(0, after));
  if (fault.kind !== 'stall') {
    exchange.destroy();
    return 'cut';
  }
  if (!(await sleep(fault.stallMs ?? Infinity, signal))) return 'gone';
  await exchange.write(reply.body.subarray(after));
  exchange.end();
  return 'done';
}
