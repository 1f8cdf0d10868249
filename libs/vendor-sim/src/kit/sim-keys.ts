import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type KeyPlacement, readRequestKey } from '@router/vendors-core';
import type { HttpExchange } from './http/http-exchange';

export type KeyCheck = 'missing' | 'invalid' | 'ok';

/**
 * The simulators' whole key policy: any non-empty key is valid unless it starts with `bad`, so a test can
 * store a wrong vendor key on purpose.
 */
export function checkKey(key: string | undefined | null): KeyCheck {
  if (key === undefined || key === null || key === '') return 'missing';
  return key.startsWith('bad') ? 'invalid' : 'ok';
}

/**
 * Counters and fault rules name a key by this short hash, never by the key itself, so neither the
 * simulator's memory nor its control API holds a vendor key. `SimControl` hashes on the test's side.
 */
export function simKeyId(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/**
 * The key an HTTP request or a socket upgrade carries, read where the vendor's wire says its key goes
 * (`VENDOR_X_KEY`, the placements the router's mirror and adapter use too).
 */
export function requestKey(
  placements: readonly KeyPlacement[],
  request: { readonly req: IncomingMessage; readonly query: URLSearchParams },
): string | undefined {
  return readRequestKey(placements, { headers: request.req.headers, query: request.query });
}

/**
 * The key of an HTTP request, read where the vendor takes it, when the simulator takes it; else undefined, the
 * vendor's refusal (`refuse`, told whether the key was missing or invalid) sent.
 */
export function authorizedKey(
  exchange: HttpExchange,
  placements: readonly KeyPlacement[],
  refuse: (check: Exclude<KeyCheck, 'ok'>) => void,
): string | undefined {
  const key = requestKey(placements, exchange);
  const check = checkKey(key);
  if (check === 'ok') return key;
  refuse(check);
  return undefined;
}

/** What a vendor's parser makes of a request: the request, or the problem the vendor answers it with. */
export type ParsedRequest<R, P> =
  { readonly ok: true; readonly request: R } | { readonly ok: false; readonly problem: P };

/** A request a simulated route takes: the key it came with and the request as the vendor reads it. */
export interface AcceptedRequest<R> {
  readonly key: string;
  readonly request: R;
}

/**
 * A request a simulated route takes: its key (undefined where the key was refused, the refusal sent) and what
 * `parse` makes of it, read only once the key is taken; else undefined, the vendor's refusal (`refuse`) sent.
 */
export function acceptParsed<R, P>(
  key: string | undefined,
  parse: () => ParsedRequest<R, P>,
  refuse: (problem: P) => void,
): AcceptedRequest<R> | undefined {
  if (!key) return undefined;
  const parsed = parse();
  if (parsed.ok) return { key, request: parsed.request };
  refuse(parsed.problem);
  return undefined;
}
