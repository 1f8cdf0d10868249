import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cutBody } from './envelope.filter';

/** What a client saw of one answer: its status, the body bytes it got, and whether the body ended cleanly. */
function fetchOnce(port: number): Promise<{ status: number | null; bytes: number; ended: 'clean' | 'cut' }> {
  return new Promise((resolve) => {
    const request = get({ port, path: '/', agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? null, bytes, ended: 'clean' }));
      res.on('error', () => resolve({ status: res.statusCode ?? null, bytes, ended: 'cut' }));
    });
    request.on('error', () => resolve({ status: null, bytes: 0, ended: 'cut' }));
  });
}

describe('cutBody', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    // The worst case: the head, some audio and the failure all in one tick (the first writes are corked).
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/pcm' });
      res.write(Buffer.alloc(2000, 1));
      cutBody(res, new Error('the take failed'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends the head and what was written before closing the connection without the body end', async () => {
    for (let i = 0; i < 10; i++) {
      await expect(fetchOnce(port)).resolves.toEqual({ status: 200, bytes: 2000, ended: 'cut' });
    }
  });
});
