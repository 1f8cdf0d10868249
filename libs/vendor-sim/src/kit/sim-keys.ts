import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type KeyPlacement, readRequestKey } from '@router/vendors-core';

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
