import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { IDENTITY_HEADER, KEY_HASH_HEADER } from '@router/auth';
import { RouterError } from '@router/contracts';
import { GATEWAY_INSTANCE_HEADER } from '@router/service-kit';
import type { Logger } from '@router/observability';
import { type MirrorSocketRefusal, PROTOCOL_HEADER, type ProtocolKey } from '@router/vendors-core';
import { failureCause } from './failure-cause';
import {
  cameOverTls,
  FORWARDED_PROTO,
  forwardedPath,
  readRequestId,
  REQUEST_ID,
  routeRequest,
} from './forwarding';
import { HandshakeAnswer } from './handshake-answer';
import { serverCloseFrame, ServerFrameTracker, serverTextFrame } from './server-frames';
import type { Refusal, SurfaceRoute } from './surface-routes';

/** What a splice needs of the gateway: its signature, its log and counters, its handshake refusals. */
export interface SpliceGate {
  /** How this gateway names itself on the upgrades it forwards (`x-router-gateway`). */
  instanceId: string;
  /** The signed identity of an upgrade (no body) as forwarded: its method and path, for `orgId`. */
  identity(method: string, path: string, orgId: string): string;
  logger: Logger;
  count(surface: string, outcome: string): void;
  writeHandshakeRefusal(socket: Socket, refusal: Refusal): void;
}

/** How long a revoked socket waits for the app's message in progress to end before the socket is cut. */
const MESSAGE_END_BOUND_MS = 2000;
/** How long a client told to close has to answer before its connection is cut. */
const CLOSE_ANSWER_BOUND_MS = 2000;

/**
 * An admitted upgrade spliced to the app as raw bytes: the app behind completes the handshake itself, and
 * every byte after it goes through untouched. The app-to-client bytes pass a `ServerFrameTracker`, which reads
 * only frame headers, so that the gateway can close the socket itself at a message boundary (`revoke`):
 * the surface's refusal messages and close frame written between two of the app's messages, the app's side
 * closed, and the client's connection ended once it answers (or after a short bound).
 */
export class SplicedSocket {
  private readonly frames = new ServerFrameTracker();
  private readonly upstream: Socket;
  /** The app's connection is up and the handshake went on to it. */
  private spliced = false;
  /** A refusal waiting for the next message boundary of the app's bytes. */
  private pendingRefusal: MirrorSocketRefusal | undefined;
  /** The gateway has closed the socket itself: the app's bytes no longer reach the client. */
  private refused = false;
  private bound: NodeJS.Timeout | undefined;
  /** Holds the app's handshake answer until it can name the sub-protocol that carried the key. */
  private answer: HandshakeAnswer | undefined;

  /** `offered`: the key among the client's sub-protocols, which the app never sees but the answer must name. */
  constructor(
    private readonly gate: SpliceGate,
    private readonly route: SurfaceRoute,
    private readonly req: IncomingMessage,
    private readonly url: URL,
    private readonly client: Socket,
    private readonly head: Buffer,
    private readonly orgId: string,
    private readonly offered?: ProtocolKey,
    /** The hash of the key it was admitted with (KEY_HASH_HEADER), for the request log. */
    private readonly keyHash?: string,
  ) {
    const target = new URL(route.upstream);
    this.upstream = connect(Number(target.port || 80), target.hostname);
    if (offered?.answer !== undefined) this.answer = new HandshakeAnswer(offered.answer);
  }

  start(): void {
    const { client, upstream } = this;
    upstream.setNoDelay(true);
    client.setNoDelay(true);
    upstream.on('error', (error) => {
      this.gate.logger.warn(
        { surface: this.route.name, cause: failureCause(error) },
        'upgrade forwarding failed',
      );
      if (this.spliced) return this.destroy();
      const failure = {
        kind: 'failure' as const,
        error: RouterError.unavailable('The router could not reach the service behind it; retry.', error),
      };
      this.gate.writeHandshakeRefusal(client, this.route.refuse(failure, routeRequest(this.req, this.url)));
    });
    upstream.once('connect', () => this.connected());
    client.once('close', () => {
      clearTimeout(this.bound);
      this.destroy();
    });
    upstream.once('close', () => {
      if (this.spliced && !this.refused) this.destroy();
    });
  }

  /** Calls `listener` once the client's connection has closed, whoever closed it. */
  onClose(listener: () => void): void {
    this.client.once('close', listener);
  }

  /**
   * Closes the socket with `refusal`: the client's messages stop reaching the app at once; the app's reach the
   * client up to the end of the message in progress, then the refusal's messages and close frame follow.
   */
  revoke(refusal: MirrorSocketRefusal): void {
    if (this.pendingRefusal || this.refused) return;
    if (!this.spliced) return this.destroy();
    this.pendingRefusal = refusal;
    this.client.unpipe(this.upstream);
    this.client.pause();
    if (this.frames.atMessageBoundary) return this.refuseNow();
    this.bound = setTimeout(() => this.destroy(), MESSAGE_END_BOUND_MS).unref();
  }

  private connected(): void {
    const { client, upstream } = this;
    this.spliced = true;
    this.gate.count(this.route.name, 'upgraded');
    upstream.write(this.handshake());
    if (this.head.length > 0) upstream.write(this.head);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => this.toClient(chunk));
    upstream.once('end', () => {
      if (!this.refused) client.end();
    });
    client.on('drain', () => upstream.resume());
  }

  /** The client's upgrade request as the app gets it: without the key, with the signed identity. */
  private handshake(): string {
    const { req, route, offered } = this;
    const path = forwardedPath(route, req, this.url);
    const method = req.method ?? 'GET';
    const lines = [`${method} ${path} HTTP/1.1`];
    const overTls = cameOverTls(req);
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i] ?? '';
      const lower = name.toLowerCase();
      if (route.keyHeaders.includes(lower) || lower === IDENTITY_HEADER || lower === REQUEST_ID) continue;
      if (lower === KEY_HASH_HEADER) continue;
      if (lower === GATEWAY_INSTANCE_HEADER) continue;
      if ((offered && lower === PROTOCOL_HEADER) || (overTls && lower === FORWARDED_PROTO)) continue;
      lines.push(`${name}: ${req.rawHeaders[i + 1] ?? ''}`);
    }
    if (overTls) lines.push(`${FORWARDED_PROTO}: https`);
    if (offered && offered.rest.length > 0) lines.push(`Sec-WebSocket-Protocol: ${offered.rest.join(', ')}`);
    lines.push(`${IDENTITY_HEADER}: ${this.gate.identity(method, path, this.orgId)}`);
    lines.push(`${REQUEST_ID}: ${readRequestId(req)}`);
    if (this.keyHash !== undefined) lines.push(`${KEY_HASH_HEADER}: ${this.keyHash}`);
    lines.push(`${GATEWAY_INSTANCE_HEADER}: ${this.gate.instanceId}`);
    return `${lines.join('\r\n')}\r\n\r\n`;
  }

  /** The hot path: a chunk of the app's bytes (audio, mostly) passed on, its frame headers read. */
  private toClient(received: Buffer): void {
    if (this.refused) return;
    let chunk = received;
    if (this.answer) {
      const whole = this.answer.read(received);
      if (whole === undefined) return;
      this.answer = undefined;
      chunk = whole;
    }
    if (this.pendingRefusal === undefined) {
      this.frames.read(chunk);
      if (!this.client.write(chunk)) this.upstream.pause();
      return;
    }
    const upToBoundary = this.frames.read(chunk, true);
    if (upToBoundary > 0 && !this.client.write(chunk.subarray(0, upToBoundary))) this.upstream.pause();
    if (this.frames.atMessageBoundary) this.refuseNow();
  }

  /** At a message boundary: the refusal and the close frame written, the app's side closed. */
  private refuseNow(): void {
    const refusal = this.pendingRefusal;
    if (!refusal) return;
    this.refused = true;
    clearTimeout(this.bound);
    this.upstream.destroy();
    const { client } = this;
    client.write(
      Buffer.concat([
        ...refusal.messages.map(serverTextFrame),
        serverCloseFrame(refusal.closeCode, refusal.closeReason),
      ]),
    );
    // The client answers with its own close frame (or a message still on its way); then its connection ends.
    const end = (): void => void client.end();
    client.once('data', end);
    client.once('end', end);
    client.on('data', () => undefined);
    client.resume();
    this.bound = setTimeout(() => client.destroy(), CLOSE_ANSWER_BOUND_MS).unref();
  }

  /** The gateway is going away: the surface's going-away close, at the end of the app's message in progress. */
  goAway(): void {
    const path = this.url.pathname;
    this.revoke(this.route.goingAway(path));
  }

  /** Cuts both connections at once: the gateway is closing, or one side failed or left. */
  destroy(): void {
    this.upstream.destroy();
    this.client.destroy();
  }
}
