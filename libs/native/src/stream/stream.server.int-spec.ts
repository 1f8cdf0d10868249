import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { EMPTY_BODY_DIGEST, IDENTITY_HEADER, signIdentity } from '@router/auth';
import { createLogger } from '@router/observability';
import {
  type OrgRetention,
  type PieceAudio,
  type PieceRequest,
  type PieceResolver,
  ReplyPlanner,
  type StoredSettings,
} from '@router/pipeline';
import { StreamServer } from './stream.server';

const SECRET = 's'.repeat(32);
const SETTINGS = {
  type: 'settings',
  model: 'vendor_c/c_model_1',
  voice: 'voice_1',
  response_format: 'pcm',
  sample_rate: 16000,
};

/** Pieces answered from memory: each piece's audio is its text's bytes, and what happened to it is kept. */
class FakeResolver {
  readonly resolved: string[] = [];
  readonly interrupted: string[] = [];
  readonly cancelled: string[] = [];
  /** Texts whose audio never ends, so a test can interrupt them while they play. */
  readonly endless = new Set<string>();

  resolve(piece: PieceRequest): Promise<PieceAudio> {
    this.resolved.push(piece.text);
    const endless = this.endless.has(piece.text);
    return Promise.resolve({
      cached: false,
      contentType: 'audio/pcm',
      chunks: (async function* () {
        yield Buffer.from(piece.text);
        if (endless) await new Promise(() => undefined);
      })(),
      words: () => Promise.resolve(null),
      chars: () => Promise.resolve(null),
      cancel: () => void this.cancelled.push(piece.text),
      interrupt: () => void this.interrupted.push(piece.text),
    });
  }
}

describe('StreamServer (loopback sockets, pipeline replaced by a fake)', () => {
  let server: Server;
  let streams: StreamServer;
  let resolver: FakeResolver;
  let url: string;
  const logs: string[] = [];

  beforeEach(async () => {
    resolver = new FakeResolver();
    const retention = { days: () => Promise.resolve(365) } as unknown as OrgRetention;
    streams = new StreamServer({
      resolver: resolver as unknown as PieceResolver,
      planner: new ReplyPlanner({
        retention,
        storedSettings: {
          resolve: () => Promise.resolve({ fingerprint: null, cacheable: true }),
        } as unknown as StoredSettings,
        cacheKeySecret: 'k'.repeat(32),
      }),
      lookAhead: 2,
      logger: createLogger({
        service: 'stream-test',
        level: 'debug',
        destination: { write: (l: string) => void logs.push(l) },
      }),
      identity: { secret: SECRET, maxAgeMs: 2000, maxFutureSkewMs: 1000 },
      idleTimeoutMs: 300,
      replanAfterMs: 0,
      now: Date.now,
    });
    server = createServer((_req, res) => res.end());
    streams.attach(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    streams.close();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Opens a connection as the gateway forwards it: signed for the org, this method and path. */
  function open(
    path = '/v1/stream',
    signed = true,
  ): Promise<{ ws: WebSocket; messages: any[]; audio: Buffer[]; closed: Promise<number> }> {
    const headers = signed
      ? {
          [IDENTITY_HEADER]: signIdentity(
            { method: 'GET', path, orgId: 'org1', bodyDigest: EMPTY_BODY_DIGEST },
            SECRET,
            Date.now(),
          ),
        }
      : {};
    const ws = new WebSocket(`${url}${path}`, { headers });
    const messages: any[] = [];
    const audio: Buffer[] = [];
    ws.on('message', (data: Buffer, isBinary) =>
      isBinary ? audio.push(data) : messages.push(JSON.parse(data.toString())),
    );
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve({ ws, messages, audio, closed }));
      ws.once('unexpected-response', (_req, res) => reject(new Error(String(res.statusCode))));
      ws.once('error', reject);
    });
  }

  async function until(test: () => boolean): Promise<void> {
    for (let i = 0; i < 200 && !test(); i += 1) await new Promise((r) => setTimeout(r, 10));
    expect(test()).toBe(true);
  }

  it('accepts only the gateway-signed handshake on /v1/stream, without query parameters', async () => {
    await expect(open('/v1/stream', false)).rejects.toThrow('401');
    await expect(open('/v1/stream?model=x')).rejects.toThrow('400');
    await expect(open('/v1/other')).rejects.toThrow('404');
  });

  it('plays released pieces as sentences and interrupts the one playing and those resolved ahead', async () => {
    resolver.endless.add('Second one plays on.');
    const { ws, messages, audio } = await open();
    ws.send(JSON.stringify(SETTINGS));
    ws.send(JSON.stringify({ type: 'text', text: 'First one. Second one plays on. Third is ahead. Fourth' }));
    await until(() => messages.some((m) => m.type === 'sentence_start' && m.sentence === 1));
    expect(messages.filter((m) => m.type === 'sentence_end').map((m) => m.sentence)).toEqual([0]);
    expect(Buffer.concat(audio).toString()).toBe('First one.Second one plays on.');
    ws.send(JSON.stringify({ type: 'interrupt' }));
    await until(() => messages.some((m) => m.type === 'interrupted'));
    expect(messages.find((m) => m.type === 'interrupted')).toEqual({
      type: 'interrupted',
      last_spoken: 1,
      text_spoken: 'First one. Second one plays on.',
      text_remaining: 'Third is ahead. Fourth',
    });
    expect(resolver.interrupted.sort()).toEqual(['Second one plays on.', 'Third is ahead.']);
    expect(resolver.cancelled).toEqual([]);
    ws.close();
  });

  it('cancels rather than interrupts when the client disconnects', async () => {
    resolver.endless.add('Plays forever.');
    const { ws, messages } = await open();
    ws.send(JSON.stringify(SETTINGS));
    ws.send(JSON.stringify({ type: 'text', text: 'Plays forever. Never asked for yet. And' }));
    await until(() => messages.some((m) => m.type === 'sentence_start'));
    ws.terminate();
    await until(() => resolver.cancelled.length === 2);
    expect(resolver.cancelled.sort()).toEqual(['Never asked for yet.', 'Plays forever.']);
    expect(resolver.interrupted).toEqual([]);
  });

  it('closes an idle connection with 4008, and a message over 256 KiB with 1009', async () => {
    const idle = await open();
    await expect(idle.closed).resolves.toBe(4008);
    const big = await open();
    big.ws.send(JSON.stringify({ type: 'text', text: 'x'.repeat(300 * 1024) }));
    await expect(big.closed).resolves.toBe(1009);
  });

  it('answers a binary frame with bad_request and stays open', async () => {
    const { ws, messages } = await open();
    ws.send(Buffer.from([1, 2, 3]));
    await until(() => messages.length > 0);
    expect(messages[0]).toMatchObject({ type: 'error', error: { code: 'bad_request', retryable: false } });
    expect(messages[0].error.message).toMatch(/binary frames are not accepted/);
    ws.send(JSON.stringify(SETTINGS));
    await until(() => messages.some((m) => m.type === 'ready'));
    ws.close();
  });

  it('logs no text the client sent', async () => {
    const secret = `Nobody may log this ${Date.now()}.`;
    const { ws, messages } = await open();
    ws.send(JSON.stringify(SETTINGS));
    ws.send(JSON.stringify({ type: 'text', text: secret }));
    ws.send(JSON.stringify({ type: 'text', text: 42 }));
    ws.send(JSON.stringify({ type: 'close' }));
    await until(() => messages.some((m) => m.type === 'sentence_end'));
    await new Promise((r) => setTimeout(r, 50));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain('Nobody may log');
  });
});
