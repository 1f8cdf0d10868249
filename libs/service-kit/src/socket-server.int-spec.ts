import { createServer, type Server } from 'node:http';
import WebSocket from 'ws';
import { EMPTY_BODY_DIGEST, IDENTITY_HEADER, signIdentity } from '@router/auth';
import { RouterError } from '@router/contracts';
import { createLogger } from '@router/observability';
import { type SocketPeer, SocketServer, type SocketSession } from './socket-server';

const IDENTITY = { secret: 's'.repeat(32), maxAgeMs: 2000, maxFutureSkewMs: 1000 };

/**
 * A socket surface's boundary (loopback HTTP and WebSocket): whatever a surface's own code throws while a
 * client opens a socket or sends on it ends that one connection in the surface's shape, is logged with its
 * cause, and leaves the server serving the next client.
 */
describe('SocketServer: one connection per failure, never the process', () => {
  let server: Server;
  let port: number;
  const logs: Array<{ level: string; msg: string }> = [];
  /** What the surface's code does with each path; `/boom-*` paths fail at that step. */
  const echo = (peer: SocketPeer): SocketSession => ({
    id: 'session',
    receive: (frame) => {
      if (frame.toString() === 'boom') throw new Error('a failure of the surface');
      void peer.send(`echo ${frame.toString()}`);
    },
    disconnected: () => undefined,
    shutdown: () => undefined,
  });

  beforeAll(async () => {
    const sockets = new SocketServer({
      name: 'test surface',
      identity: IDENTITY,
      now: Date.now,
      logger: createLogger({
        service: 'socket-server-test',
        level: 'info',
        destination: { write: (line: string) => void logs.push(JSON.parse(line)) },
      }),
      maxPayloadBytes: 1024,
      check: (url) => {
        if (url.pathname === '/boom-check') throw new Error('a failure of the check');
        return url.pathname === '/missing' ? new RouterError('not_found', 'No such socket.') : null;
      },
      refusal: (error) => {
        if (error.code === 'internal' && refuseFails) throw new Error('a failure of the refusal');
        return { status: error.status, contentType: 'application/json', body: `{"refused":"${error.code}"}` };
      },
      idle: () => ({ ms: 60_000, code: 1000, reason: '' }),
      open: (peer, _orgId, url, headers) => {
        if (url.pathname === '/boom-open') throw new Error('a failure of the open');
        if (url.pathname === '/headers') void peer.send(JSON.stringify(headers));
        return echo(peer);
      },
    });
    server = createServer();
    sockets.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  let refuseFails = false;

  function open(path: string, extra: Record<string, string> = {}): WebSocket {
    const headers = {
      ...extra,
      [IDENTITY_HEADER]: signIdentity(
        { method: 'GET', path, orgId: 'org-1', bodyDigest: EMPTY_BODY_DIGEST },
        IDENTITY.secret,
        Date.now(),
      ),
    };
    return new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
  }

  /** How the socket ended: its close code, or the status of a refused handshake. */
  function ending(
    ws: WebSocket,
  ): Promise<{ close?: number; status?: number; body?: string; frames: string[] }> {
    const frames: string[] = [];
    ws.on('message', (data: Buffer) => frames.push(data.toString()));
    return new Promise((resolve) => {
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.once('end', () => resolve({ status: res.statusCode, body, frames }));
      });
      ws.once('close', (code) => resolve({ close: code, frames }));
      ws.once('error', () => undefined);
    });
  }

  async function stillServes(): Promise<void> {
    const ws = open('/fine');
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send('hello');
    const reply = await new Promise<Buffer>((resolve) => ws.once('message', resolve));
    expect(reply.toString()).toBe('echo hello');
    ws.close();
  }

  it('answers a handshake whose check throws with the surface refusal of an internal failure', async () => {
    const answer = await ending(open('/boom-check'));
    expect(answer).toMatchObject({ status: 500, body: '{"refused":"internal"}' });
    expect(logs.some((l) => l.level === 'error' && l.msg === 'socket handshake failed')).toBe(true);
    await stillServes();
  });

  it('drops a handshake whose refusal itself fails, and goes on serving', async () => {
    refuseFails = true;
    try {
      const ws = open('/boom-check');
      const closed = await new Promise<string>((resolve) => {
        ws.once('error', (error) => resolve(error.message));
        ws.once('close', () => resolve('closed'));
      });
      expect(closed).toMatch(/socket hang up|closed|ECONNRESET/);
    } finally {
      refuseFails = false;
    }
    await stillServes();
  });

  it('closes a socket whose session cannot be opened with 1011', async () => {
    expect((await ending(open('/boom-open'))).close).toBe(1011);
    expect(logs.some((l) => l.level === 'error' && l.msg === 'socket open failed')).toBe(true);
    await stillServes();
  });

  it('closes a socket with 1011 when handling its message throws, and only that socket', async () => {
    const other = open('/fine');
    await new Promise((resolve) => other.once('open', resolve));
    const ws = open('/fine');
    await new Promise((resolve) => ws.once('open', resolve));
    const ended = ending(ws);
    ws.send('boom');
    expect((await ended).close).toBe(1011);
    expect(logs.some((l) => l.level === 'error' && l.msg === 'socket message failed')).toBe(true);
    expect(other.readyState).toBe(WebSocket.OPEN);
    other.close();
    await stillServes();
  });

  it("hands the session the handshake's headers, the gateway's identity taken off", async () => {
    const ws = open('/headers', { 'x-vendor-version': '2026-01-01' });
    const frame = await new Promise<Buffer>((resolve) => ws.once('message', resolve));
    ws.close();
    const headers = JSON.parse(frame.toString()) as Record<string, unknown>;
    expect(headers['x-vendor-version']).toBe('2026-01-01');
    expect(headers).not.toHaveProperty(IDENTITY_HEADER);
  });

  it('refuses a path the surface does not have in its shape', async () => {
    expect(await ending(open('/missing'))).toMatchObject({ status: 404, body: '{"refused":"not_found"}' });
  });
});
