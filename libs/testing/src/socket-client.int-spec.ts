import { createServer, type Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { mirrorSocketUrl, openSocket, TestSocket } from './socket-client';

/**
 * The test socket client against a loopback WebSocket server: `/echo` sends back each message (a `close`
 * message closes with 4000, `bytes` answers a binary frame), `/refused` is refused with a 403 at the
 * handshake.
 */
describe('TestSocket (loopback)', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const wss = new WebSocketServer({ noServer: true });
    server = createServer();
    server.on('upgrade', (req, socket, head) => {
      if (req.url?.startsWith('/refused')) {
        socket.end(
          'HTTP/1.1 403 Forbidden\r\ncontent-type: application/json\r\ncontent-length: 14\r\n\r\n{"error":"no"}',
        );
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.send(JSON.stringify({ hello: req.headers['x-version'] ?? null, url: req.url }));
        ws.on('message', (data: Buffer) => {
          const text = data.toString();
          if (text === 'close') ws.close(4000, 'asked');
          else if (text === 'bytes') ws.send(Buffer.from([1, 2, 3]));
          else ws.send(text);
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('opens with headers and a query, keeps every frame in order, and waits for a match or a state', async () => {
    const socket = await openSocket(mirrorSocketUrl(base, 'vendor_x', '/echo', { a: '1 2' }), {
      headers: { 'x-version': '2026-01-01' },
    });
    const second = socket.next((frame) => frame['n'] === 2);
    socket.send({ n: 1 });
    socket.send({ n: 2 });
    expect(await second).toEqual({ n: 2 });
    socket.send('bytes');
    socket.send('not json');
    socket.send({ n: 3 });
    await socket.until((frames) => frames.at(-1)?.['n'] === 3);
    expect(socket.frames).toEqual([
      { hello: '2026-01-01', url: '/vendor_x/echo?a=1+2' },
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
    expect(socket.binaries).toEqual([Buffer.from([1, 2, 3])]);
    expect(socket.texts).toContain('not json');
    socket.close();
    expect(await socket.closed).toMatchObject({ code: 1000, by: 'client' });
  });

  it('fails a wait the close leaves unmet, and reports the close the server chose', async () => {
    const socket = await openSocket(`${base.replace(/^http/, 'ws')}/echo`);
    const never = socket.next((frame) => frame['n'] === 99);
    socket.send('close');
    await expect(never).rejects.toThrow('closed (4000)');
    expect(await socket.closed).toEqual({ code: 4000, reason: 'asked', by: 'server' });
    await expect(socket.until(() => false)).rejects.toThrow('closed');
  });

  it('gives a refused handshake as its answer, and openSocket rejects with it', async () => {
    const socket = new TestSocket(`${base.replace(/^http/, 'ws')}/refused`);
    const handshake = await socket.handshake;
    expect(handshake).toMatchObject({
      kind: 'refused',
      answer: { status: 403, contentType: 'application/json' },
    });
    if (handshake.kind === 'refused') expect(handshake.answer.body.toString()).toBe('{"error":"no"}');
    await expect(openSocket(`${base.replace(/^http/, 'ws')}/refused`)).rejects.toThrow('403');
  });
});
