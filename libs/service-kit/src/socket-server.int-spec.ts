import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { ANONYMOUS_ORG, EMPTY_BODY_DIGEST, IDENTITY_HEADER, signIdentity } from '@router/auth';
import { RouterError } from '@router/contracts';
import { createLogger, Health } from '@router/observability';
import { waitFor } from '@router/testing';
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
  /** Every server here logs into `logs`, for the tests that read what a failure logged. */
  const logger = createLogger({
    service: 'socket-server-test',
    level: 'info',
    destination: { write: (line: string) => void logs.push(JSON.parse(line)) },
  });
  /** What the surface's code does with each path; `/boom-*` paths fail at that step. */
  const echo = (peer: SocketPeer): SocketSession => ({
    id: 'session',
    receive: (frame) => {
      if (frame.toString() === 'boom') throw new Error('a failure of the surface');
      void peer.send(`echo ${frame.toString()}`);
    },
    disconnected: () => undefined,
    drain: () => Promise.resolve(),
    shutdown: () => undefined,
  });
  /** A session that sends `tick <n>` every 20 ms, `ticks` of them (forever when left out), and echoes. */
  const ticker = (peer: SocketPeer, ticks = Infinity): SocketSession => {
    let sent = 0;
    const timer = setInterval(() => {
      if (sent >= ticks) return clearInterval(timer);
      void peer.send(`tick ${++sent}`);
    }, 20);
    return { ...echo(peer), disconnected: () => clearInterval(timer) };
  };

  beforeAll(async () => {
    const sockets = new SocketServer({
      name: 'test surface',
      identity: IDENTITY,
      now: Date.now,
      logger,
      maxPayloadBytes: 1024,
      check: (url, headers) => {
        if (url.pathname === '/boom-check') throw new Error('a failure of the check');
        if (url.searchParams.has('timeout')) {
          // A surface's own refusal of its query, as its vendor words it (the handshake's headers at hand).
          const body = JSON.stringify({ error: 'timeout too long', version: headers['x-vendor-version'] });
          return { status: 422, contentType: 'application/json', body };
        }
        return url.pathname === '/missing' ? new RouterError('not_found', 'No such socket.') : null;
      },
      refusal: (error) => {
        if (error.code === 'internal' && refuseFails) throw new Error('a failure of the refusal');
        return { status: error.status, contentType: 'application/json', body: `{"refused":"${error.code}"}` };
      },
      idle: (url) => {
        const ms = Number(url.searchParams.get('idleMs') ?? 60_000);
        const clock = url.searchParams.get('clock') === 'either' ? 'either' : undefined;
        return { ms, frames: ['{"idle":true}'], code: 4008, reason: 'idle', ...(clock ? { clock } : {}) };
      },
      open: (peer, _orgId, url, headers) => {
        if (url.pathname === '/boom-open') throw new Error('a failure of the open');
        if (url.pathname === '/headers') void peer.send(JSON.stringify(headers));
        if (url.pathname === '/ticks') return ticker(peer, Number(url.searchParams.get('ticks') ?? Infinity));
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

  it('answers a handshake the surface refuses with an answer of its own as it is, status and body', async () => {
    const answer = await ending(open('/fine?timeout=500', { 'x-vendor-version': '2' }));
    expect(answer).toMatchObject({ status: 422, body: '{"error":"timeout too long","version":"2"}' });
  });

  it("refuses a handshake signed for another method than GET with the surface's 405, not as unsigned", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.once('close', () => resolve(received));
      socket.once('error', reject);
      const identity = signIdentity(
        { method: 'POST', path: '/fine', orgId: 'org-1', bodyDigest: EMPTY_BODY_DIGEST },
        IDENTITY.secret,
        Date.now(),
      );
      socket.write(
        'POST /fine HTTP/1.1\r\nHost: app\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
          'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
          `${IDENTITY_HEADER}: ${identity}\r\n\r\n`,
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\nallow: GET\r\n/);
    expect(answer.endsWith('{"refused":"bad_request"}')).toBe(true);
  });

  it('refuses a path the surface does not have in its shape', async () => {
    expect(await ending(open('/missing'))).toMatchObject({ status: 404, body: '{"refused":"not_found"}' });
  });

  describe('the idle clock', () => {
    it("counts only the client's messages: a socket that keeps sending is closed after the surface's idle frames", async () => {
      const ws = open('/ticks?idleMs=400');
      const frames: string[] = [];
      // 200 ticks 20 ms apart would outlast the idle time ten times over.
      const ended = await new Promise<number | 'still open'>((resolve) => {
        ws.on('message', (data: Buffer) => {
          frames.push(data.toString());
          if (frames.length >= 200) resolve('still open');
        });
        ws.once('close', (code) => resolve(code));
      });
      ws.close();
      expect(ended).toBe(4008);
      expect(frames.at(-1)).toBe('{"idle":true}');
      expect(frames.slice(0, -1).every((f) => f.startsWith('tick '))).toBe(true);
    });

    it("is restarted by each of the client's messages", async () => {
      const ws = open('/fine?idleMs=1000');
      const ended = ending(ws);
      await new Promise((resolve) => ws.once('open', resolve));
      // 25 messages 100 ms apart outlast the idle time 2.5 times over: each one starts it again.
      for (let i = 1; i <= 25; i += 1) {
        ws.send(`message ${i}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const { close, frames } = await ended;
      expect(close).toBe(4008);
      expect(frames).toEqual([
        ...Array.from({ length: 25 }, (_, i) => `echo message ${i + 1}`),
        '{"idle":true}',
      ]);
    });

    it("counts the surface's sends too where its clock is `either`", async () => {
      // 75 ticks 20 ms apart outlast the idle time 2.5 times over.
      const ws = open('/ticks?idleMs=600&clock=either&ticks=75');
      const { close, frames } = await ending(ws);
      expect(close).toBe(4008);
      expect(frames).toEqual([...Array.from({ length: 75 }, (_, i) => `tick ${i + 1}`), '{"idle":true}']);
    });
  });

  it('ends a socket whose dashboard session ended, with 1008 even when the session fails to say so itself', async () => {
    /** Whether the session behind the socket still admits it. */
    let signedIn = true;
    const sessions = new SocketServer({
      name: 'session surface',
      identity: IDENTITY,
      now: Date.now,
      logger,
      maxPayloadBytes: 1024,
      check: () => null,
      refusal: (error) => ({ status: error.status, contentType: 'application/json', body: '{}' }),
      idle: () => ({ ms: 60_000, code: 4008, reason: 'idle' }),
      open: (peer, _orgId, url) => ({
        ...echo(peer),
        revoked: () => {
          if (url.pathname === '/boom-revoked') throw new Error('a failure of the revocation');
          void peer.send('revoked');
          peer.close(4001, 'signed out');
        },
      }),
      sessionOrg: () =>
        signedIn ? Promise.resolve('org-1') : Promise.reject(RouterError.unauthorized('Signed out.')),
      sessionRecheckMs: 20,
    });
    const sessionServer = createServer();
    sessions.attach(sessionServer);
    await new Promise<void>((resolve) => sessionServer.listen(0, '127.0.0.1', resolve));
    const sessionPort = (sessionServer.address() as { port: number }).port;
    const opened = async (path: string): Promise<WebSocket> => {
      const identity = signIdentity(
        { method: 'GET', path, orgId: ANONYMOUS_ORG, bodyDigest: EMPTY_BODY_DIGEST },
        IDENTITY.secret,
        Date.now(),
      );
      const ws = new WebSocket(`ws://127.0.0.1:${sessionPort}${path}`, {
        headers: { [IDENTITY_HEADER]: identity },
      });
      await new Promise((resolve) => ws.once('open', resolve));
      return ws;
    };
    try {
      const told = await opened('/fine');
      const failing = await opened('/boom-revoked');
      const endings = [ending(told), ending(failing)];
      signedIn = false;
      expect(await Promise.all(endings)).toEqual([
        { close: 4001, frames: ['revoked'] },
        { close: 1008, frames: [] },
      ]);
      expect(logs).toContainEqual(expect.objectContaining({ msg: 'socket session recheck failed' }));
      await stillServes();
    } finally {
      sessionServer.closeAllConnections();
      await new Promise<void>((resolve) => sessionServer.close(() => resolve()));
    }
  });
});

describe('SocketServer metrics', () => {
  it('counts its open sockets by surface, from 0 before the first', async () => {
    const health = new Health('socket-metrics-test');
    const session = (): SocketSession => ({
      id: 'session',
      receive: () => undefined,
      disconnected: () => undefined,
      drain: () => Promise.resolve(),
      shutdown: () => undefined,
    });
    const sockets = new SocketServer({
      metrics: health.metrics,
      name: 'counted',
      identity: IDENTITY,
      now: Date.now,
      logger: createLogger({ service: 'socket-metrics-test', level: 'silent' }),
      maxPayloadBytes: 1024,
      check: () => null,
      refusal: (error) => ({ status: error.status, contentType: 'text/plain', body: error.code }),
      idle: () => ({ ms: 60_000, frames: [], code: 4008, reason: 'idle' }),
      open: () => session(),
    });
    const server = createServer();
    sockets.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const count = async (): Promise<string | undefined> =>
      (await health.metrics.metrics()).split('\n').find((line) => line.startsWith('router_open_sockets{'));
    const line = (n: number): string =>
      `router_open_sockets{surface="counted",service="socket-metrics-test"} ${n}`;
    try {
      expect(await count()).toBe(line(0));
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`, {
        headers: {
          [IDENTITY_HEADER]: signIdentity(
            { method: 'GET', path: '/', orgId: 'org-1', bodyDigest: EMPTY_BODY_DIGEST },
            IDENTITY.secret,
            Date.now(),
          ),
        },
      });
      await new Promise((resolve) => ws.once('open', resolve));
      expect(await count()).toBe(line(1));
      ws.close();
      await waitFor('the socket to be counted closed', async () => (await count()) === line(0));
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
