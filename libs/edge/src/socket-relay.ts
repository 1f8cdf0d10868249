import type { IncomingMessage } from 'node:http';
import WebSocket, { type RawData } from 'ws';
import { hashApiKey, IDENTITY_HEADER, KEY_HASH_HEADER } from '@router/auth';
import type { Logger } from '@router/observability';
import { GATEWAY_INSTANCE_HEADER } from '@router/service-kit';
import {
  type KeylessMessage,
  type MirrorRevocationKind,
  type MirrorSocketAccess,
  type MirrorSocketRefusal,
  limitedSocketRefusal,
  type UnreadableMessage,
  unreadableMessageRefusal,
} from '@router/vendors-core';
import { failureCause } from './failure-cause';
import {
  cameOverTls,
  FORWARDED_PROTO,
  forwardedPath,
  HOP_BY_HOP,
  readRequestId,
  REQUEST_ID,
  routeRequest,
} from './forwarding';
import type { LimitedUse } from './org-limiter';
import type { AccessProblem, RouteRequest, SurfaceRoute } from './surface-routes';

/** How long a socket that may carry its key in its first message waits for that message. */
const FIRST_MESSAGE_TIMEOUT_MS = 20_000;
/** Keyless messages (keep-alives) held at most before the one with the key; past them, the next is read for it. */
const MAX_HELD_BEFORE_KEY = 32;

/** What the relay needs of the gateway: its checks, its signature and its log and counters. */
export interface RelayGate {
  authorize(
    route: SurfaceRoute,
    request: RouteRequest,
    key: string | undefined,
    rawHeaders: string[],
    use: LimitedUse,
  ): Promise<{ orgId: string; release: () => void } | AccessProblem>;
  /** The signed identity header for an upgrade (no body) by `method` of `path` for `orgId`. */
  identity(method: string, path: string, orgId: string): string;
  /** How this gateway names itself on the upgrades it forwards (`x-router-gateway`). */
  instanceId: string;
  /** Registers an admitted socket for re-checks of its key and org; returns the function that forgets it. */
  track(
    route: SurfaceRoute,
    key: string | undefined,
    orgId: string,
    revoke: (kind: MirrorRevocationKind) => void,
  ): () => void;
  logger: Logger;
  count(surface: string, outcome: string): void;
}

type AfterAccept = Extract<MirrorSocketAccess, { refusal: 'after-accept' }>;

/**
 * A socket whose vendor refuses after accepting, and whose clients may send the key in their first message
 * instead of the handshake: the gateway completes the client's handshake, finds the key (the header, else
 * the first message), and then either sends the vendor's refusal and closes, or opens the app's socket with
 * the signed identity and relays every message, taking the key's fields out of each client message.
 */
export function relayKeyedSocket(
  gate: RelayGate,
  route: SurfaceRoute,
  req: IncomingMessage,
  url: URL,
  client: WebSocket,
): void {
  if (route.socket.refusal !== 'after-accept') return void client.close(1011, 'the router failed');
  new KeyedSocketRelay(gate, route, route.socket, req, url, client).start();
}

/**
 * One relayed connection. Everything it does for the connection (each client and app message, each close,
 * the admission) runs inside its own boundary: a failure there is logged with its cause (never a message's
 * text or a key) and closes this connection with 1011, and nothing else.
 */
class KeyedSocketRelay {
  /** The app's socket, opened once the client is admitted. */
  private app: WebSocket | undefined;
  /** Client messages that came before the app's socket was open, in order. */
  private readonly waiting: Array<{ data: RawData | string; isBinary: boolean }> = [];
  /** Keyless messages the vendor takes before its key (`keylessBeforeKey`), held while the key is awaited. */
  private readonly heldBeforeKey: string[] = [];
  /** Set while the key is awaited from the first message: it gets that message (undefined: none came). */
  private onFirst: ((message: KeylessMessage | UnreadableMessage | undefined) => void) | undefined;
  /** Refused, failed or gone: nothing more is relayed either way. */
  private ended = false;
  /** Forgets the socket in the gateway's registry of open sockets, once it was admitted. */
  private untrack: () => void = () => undefined;
  /** Frees the socket's place under its org's limit. */
  private release: () => void = () => undefined;

  constructor(
    private readonly gate: RelayGate,
    private readonly route: SurfaceRoute,
    private readonly access: AfterAccept,
    private readonly req: IncomingMessage,
    private readonly url: URL,
    private readonly client: WebSocket,
  ) {}

  start(): void {
    const { client } = this;
    client.on(
      'message',
      this.guarded('client message', (data: RawData, isBinary: boolean) => this.fromClient(data, isBinary)),
    );
    // A protocol error (a message over the size limit, a bad frame) has already sent its close; the rest end here.
    client.on('error', () => {
      if (client.readyState !== WebSocket.CLOSING) client.terminate();
    });
    client.once(
      'close',
      this.guarded('client close', (code: number, reason: Buffer) => {
        this.ended = true;
        this.untrack();
        this.release();
        this.onFirst?.(undefined);
        if (this.app) closeWith(this.app, code, reason.toString());
      }),
    );
    this.admit().catch((error: unknown) => this.fail('admission', error));
  }

  private fromClient(data: RawData, isBinary: boolean): void {
    if (this.ended) return;
    if (isBinary) return this.forward(data, true);
    const taken = this.access.takeKey(rawText(data));
    if (this.onFirst && this.holdsBeforeKey(taken)) return void this.heldBeforeKey.push(taken.message);
    if (this.onFirst) {
      const deliver = this.onFirst;
      this.onFirst = undefined;
      return deliver(taken);
    }
    if ('unreadable' in taken) return this.refuse(unreadableMessageRefusal(this.access, taken.unreadable));
    this.forward(taken.message, false);
  }

  /** Whether a message that came while the key is awaited is one the vendor takes before it, to hold. */
  private holdsBeforeKey(taken: KeylessMessage | UnreadableMessage): taken is KeylessMessage {
    if ('unreadable' in taken || taken.key !== undefined) return false;
    return this.heldBeforeKey.length < MAX_HELD_BEFORE_KEY && this.access.keylessBeforeKey?.(taken) === true;
  }

  private forward(data: RawData | string, isBinary: boolean): void {
    const app = this.app;
    if (!app || app.readyState !== WebSocket.OPEN) return void this.waiting.push({ data, isBinary });
    sendPaced(this.client, app, data, isBinary);
  }

  /** The key from the handshake or the first message, checked; then the app's socket, or the refusal. */
  private async admit(): Promise<void> {
    const { gate, route, req, url } = this;
    const request = routeRequest(req, url);
    const headerKey = route.readKey(request);
    let first: KeylessMessage | undefined;
    if (headerKey === undefined) {
      const taken = await this.firstMessage();
      if (taken !== undefined && 'unreadable' in taken) {
        return this.refuse(unreadableMessageRefusal(this.access, taken.unreadable));
      }
      first = taken;
    }
    if (this.ended) return;
    const key = headerKey ?? first?.key;
    const admitted = await gate.authorize(route, request, key, req.rawHeaders, 'socket');
    if (this.ended) {
      if (!('kind' in admitted)) admitted.release();
      return;
    }
    if ('kind' in admitted) {
      if (admitted.error.code === 'rate_limited') {
        return this.refuse(limitedSocketRefusal(this.access, admitted.error.message, first));
      }
      if (admitted.kind === 'failure') return this.close(1011, 'the router failed');
      return this.refuse(this.access.refuse(admitted.kind, first));
    }
    this.release = admitted.release;
    // Registered by the key's hash; nothing here keeps the key once the app's socket is asked for, and the
    // first message goes on without it.
    this.untrack = gate.track(route, key, admitted.orgId, (kind) => this.refuse(route.refuseOpen(kind)));
    this.openApp(admitted.orgId, first?.message, key === undefined ? undefined : hashApiKey(key));
  }

  /** The first client message with its key taken out; undefined when the client left or sent none in time. */
  private firstMessage(): Promise<KeylessMessage | UnreadableMessage | undefined> {
    return new Promise((resolve) => {
      // A client that never says anything is refused as one without a key, as the vendor would time out.
      const timer = setTimeout(() => this.onFirst?.(undefined), FIRST_MESSAGE_TIMEOUT_MS);
      this.onFirst = (message) => {
        this.onFirst = undefined;
        clearTimeout(timer);
        resolve(message);
      };
    });
  }

  private openApp(orgId: string, first: string | undefined, keyHash: string | undefined): void {
    const { gate, route, req, url } = this;
    const path = forwardedPath(route, req, url);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || name.startsWith('sec-websocket-')) continue;
      if (route.keyHeaders.includes(name) || name === IDENTITY_HEADER) continue;
      if (name === GATEWAY_INSTANCE_HEADER || name === KEY_HASH_HEADER) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    // The app's socket is opened by the ws client below, with GET, whatever the client's handshake was.
    headers[IDENTITY_HEADER] = gate.identity('GET', path, orgId);
    headers[REQUEST_ID] = readRequestId(req);
    headers[GATEWAY_INSTANCE_HEADER] = gate.instanceId;
    if (keyHash !== undefined) headers[KEY_HASH_HEADER] = keyHash;
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
    if (cameOverTls(req)) headers[FORWARDED_PROTO] = 'https';
    const target = new URL(path, route.upstream.replace(/^http/, 'ws'));
    const app = new WebSocket(target, { headers, perMessageDeflate: false });
    this.app = app;
    app.once(
      'open',
      this.guarded('app open', () => {
        gate.count(route.name, 'upgraded');
        for (const held of this.heldBeforeKey.splice(0)) app.send(held);
        if (first !== undefined) app.send(first);
        for (const { data, isBinary } of this.waiting.splice(0)) this.forward(data, isBinary);
      }),
    );
    app.on(
      'message',
      this.guarded('app message', (data: RawData, isBinary: boolean) => {
        if (!this.ended) sendPaced(app, this.client, data, isBinary);
      }),
    );
    app.on('error', (error) => {
      gate.logger.warn({ surface: route.name, cause: failureCause(error) }, 'socket relay failed');
      this.close(1011, 'upstream unavailable');
    });
    app.once(
      'close',
      this.guarded('app close', (code: number, reason: Buffer) =>
        closeWith(this.client, code, reason.toString()),
      ),
    );
  }

  /** The vendor's refusal: its messages, then its close; the app's socket, if open, is closed too. */
  private refuse(refusal: MirrorSocketRefusal): void {
    this.ended = true;
    for (const message of refusal.messages) {
      if (this.client.readyState === WebSocket.OPEN) this.client.send(message);
    }
    this.close(refusal.closeCode, refusal.closeReason);
  }

  private close(code: number, reason: string): void {
    this.ended = true;
    closeWith(this.client, code, reason);
    if (this.app) closeWith(this.app, 1000, '');
  }

  /** A failure of the router's own on this connection: logged, and this connection alone closed with 1011. */
  private fail(stage: string, error: unknown): void {
    this.gate.logger.error(
      { surface: this.route.name, stage, cause: failureCause(error) },
      'socket relay failed',
    );
    this.ended = true;
    try {
      closeWith(this.client, 1011, 'the router failed');
    } catch {
      this.client.terminate();
    }
    this.app?.terminate();
  }

  /** `run` inside this connection's boundary. */
  private guarded<A extends unknown[]>(stage: string, run: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      try {
        run(...args);
      } catch (error) {
        this.fail(stage, error);
      }
    };
  }
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
  if (!isSendableCloseCode(code)) return void ws.close();
  ws.close(code, Buffer.byteLength(reason) > 123 ? '' : reason);
}

/** The close codes a close frame may carry (RFC 6455 7.4; ws refuses the others). */
function isSendableCloseCode(code: number): boolean {
  return (
    (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999)
  );
}
