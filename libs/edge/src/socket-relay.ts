import type { IncomingMessage } from 'node:http';
import WebSocket, { type RawData } from 'ws';
import { IDENTITY_HEADER } from '@router/auth';
import type { Logger } from '@router/observability';
import type { KeylessMessage } from '@router/vendors-core';
import { forwardedPath, HOP_BY_HOP, readRequestId, REQUEST_ID, routeRequest } from './forwarding';
import type { AccessProblem, RouteRequest, SurfaceRoute } from './surface-routes';

/** How long a socket that may carry its key in its first message waits for that message. */
const FIRST_MESSAGE_TIMEOUT_MS = 20_000;

/** What the relay needs of the gateway: its checks, its signature and its log and counters. */
export interface RelayGate {
  authorize(
    route: SurfaceRoute,
    request: RouteRequest,
    key: string | undefined,
    rawHeaders: string[],
  ): Promise<{ orgId: string } | AccessProblem>;
  /** The signed identity header for an upgrade of `path` by `orgId`. */
  identity(path: string, orgId: string): string;
  logger: Logger;
  count(surface: string, outcome: string): void;
}

/**
 * A socket whose vendor refuses after accepting, and whose clients may send the key in their first message
 * instead of the handshake: the gateway completes the client's handshake, finds the key (the header, else
 * the first message), and then either sends the vendor's refusal and closes, or opens the app's socket with
 * the signed identity and relays every message, taking the key's fields out of each client message.
 */
export async function relayKeyedSocket(
  gate: RelayGate,
  route: SurfaceRoute,
  req: IncomingMessage,
  url: URL,
  client: WebSocket,
): Promise<void> {
  if (route.socket.refusal !== 'after-accept') return;
  const access = route.socket;
  const waiting: Array<{ data: RawData; isBinary: boolean }> = [];
  let upstream: WebSocket | undefined = undefined; // opened once the client is admitted
  const forward = (data: RawData, isBinary: boolean): void => {
    if (!upstream || upstream.readyState !== WebSocket.OPEN) return void waiting.push({ data, isBinary });
    sendPaced(client, upstream, isBinary ? data : access.takeKey(rawText(data)).message, isBinary);
  };
  let onFirst: ((message: KeylessMessage) => void) | undefined;
  client.on('message', (data, isBinary) => {
    if (onFirst && !isBinary) {
      const first = access.takeKey(rawText(data));
      const deliver = onFirst;
      onFirst = undefined;
      return deliver(first);
    }
    forward(data, isBinary);
  });
  client.on('error', () => client.terminate());
  let clientGone = false;
  const noFirstMessage: KeylessMessage = { key: undefined, message: '', fields: undefined };
  client.once('close', (code, reason) => {
    clientGone = true;
    onFirst?.(noFirstMessage);
    if (upstream) closeWith(upstream, code, reason.toString());
  });

  const request = routeRequest(req, url);
  const headerKey = route.readKey(request);
  let first: KeylessMessage | undefined;
  if (headerKey === undefined) {
    first = await new Promise<KeylessMessage>((resolve) => {
      onFirst = resolve;
      // A client that never says anything is refused as one without a key, as the vendor would time out.
      const timer = setTimeout(() => onFirst?.(noFirstMessage), FIRST_MESSAGE_TIMEOUT_MS);
      client.once('close', () => clearTimeout(timer));
      client.once('message', () => clearTimeout(timer));
    });
    onFirst = undefined;
  }
  const admitted = await gate.authorize(route, request, headerKey ?? first?.key, req.rawHeaders);
  if (clientGone) return;
  if ('kind' in admitted) {
    if (admitted.kind === 'failure') return void client.close(1011, 'the router failed');
    const refusal = access.refuse(admitted.kind, first);
    for (const message of refusal.messages) client.send(message);
    client.close(refusal.closeCode, refusal.closeReason);
    return;
  }
  const path = forwardedPath(route, req, url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name.startsWith('sec-websocket-')) continue;
    if (route.keyHeaders.includes(name) || name === IDENTITY_HEADER) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  headers[IDENTITY_HEADER] = gate.identity(path, admitted.orgId);
  headers[REQUEST_ID] = readRequestId(req);
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
  const target = new URL(path, route.upstream.replace(/^http/, 'ws'));
  upstream = new WebSocket(target, { headers, perMessageDeflate: false });
  const app = upstream;
  app.once('open', () => {
    gate.count(route.name, 'upgraded');
    if (first) app.send(first.message);
    for (const { data, isBinary } of waiting.splice(0)) forward(data, isBinary);
  });
  app.on('message', (data, isBinary) => sendPaced(app, client, data, isBinary));
  app.on('error', (error) => {
    gate.logger.warn({ err: error, surface: route.name }, 'socket relay failed');
    if (client.readyState === WebSocket.OPEN) client.close(1011, 'upstream unavailable');
  });
  app.once('close', (code, reason) => closeWith(client, code, reason.toString()));
}

/** Bytes queued on a socket past which the side feeding it is paused (audio flows faster than some clients read). */
const HIGH_WATER_BYTES = 1024 * 1024;

/** Sends `data` from one side to the other, pausing the sender while the receiver's queue is over its mark. */
function sendPaced(from: WebSocket, to: WebSocket, data: RawData | string, isBinary: boolean): void {
  if (to.readyState !== WebSocket.OPEN) return;
  to.send(data, { binary: isBinary }, () => {
    if (from.isPaused && to.bufferedAmount < HIGH_WATER_BYTES / 4) from.resume();
  });
  if (to.bufferedAmount > HIGH_WATER_BYTES && !from.isPaused) from.pause();
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString();
  return Buffer.isBuffer(data) ? data.toString() : Buffer.from(data).toString();
}

/** Passes a close on; the codes that only describe a close (no status, abnormal) cannot be sent. */
function closeWith(ws: WebSocket, code: number, reason: string): void {
  if (ws.readyState === WebSocket.CLOSED || ws.readyState === WebSocket.CLOSING) return;
  if (code === 1006) return void ws.terminate();
  if (code === 1005 || code < 1000 || code === 1015) return void ws.close();
  ws.close(code, reason);
}
