import type { ServerResponse } from 'node:http';
import type { Logger } from '@router/observability';

/**
 * Whether the client went away before the answer's end: the response closed unfinished, and not because the
 * router destroyed it with a failure of its own (that one is logged where it happened).
 */
export function clientLeft(res: ServerResponse): boolean {
  return !res.writableFinished && res.errored === null && (res.destroyed || res.socket?.destroyed !== false);
}

/**
 * A request's unexpected failure, at error: the router's own failures are what an operator's error log holds.
 * Once the client has left, the failure is its consequence (a stream cancelled, a body cut short): clients
 * going away is normal traffic, so it is said at info.
 */
export function logRequestFailure(
  logger: Logger,
  res: ServerResponse,
  exception: unknown,
  fields: Record<string, unknown>,
  message: string,
): void {
  if (clientLeft(res)) logger.info({ err: exception, ...fields }, `${message} after its client left`);
  else logger.error({ err: exception, ...fields }, message);
}
