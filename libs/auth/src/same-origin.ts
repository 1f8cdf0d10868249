import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a browser's `Origin` names the host the request was sent to: the gateway's `X-Forwarded-Host` (the
 * client's `Host`, or what a proxy in front said it was), else the request's own `Host`. A page cannot set
 * either header on a cross-site request without the browser asking this origin first, and a browser always
 * sends `Origin` on a WebSocket handshake, so this is what stands in for a CSRF token where none can be sent.
 */
export function originIsRequestHost(
  origin: string | string[] | undefined,
  headers: IncomingHttpHeaders,
): boolean {
  const forwarded = headers['x-forwarded-host'];
  const host = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || headers.host;
  if (typeof origin !== 'string' || host === undefined) return false;
  try {
    const from = new URL(origin);
    // Read as the origin's scheme, so a default port written out (`:443`) is the same host as none.
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false; // `Origin: null` (a sandboxed frame, a file) and anything unparsable
  }
}
