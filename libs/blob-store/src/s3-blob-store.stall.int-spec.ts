import { isStoreUnreachable } from '@router/contracts';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3BlobStore, S3StalledError } from './s3-blob-store';

/**
 * A store that hangs fails each request after its idle bound, as one that is down: the minio client sets no
 * bound of its own, so a paused or stuck S3 endpoint held every PUT (and the take's end behind it) for good.
 * Loopback stand-ins: one that reads each request and never answers, one that sends an object's head and then
 * nothing, one that sends its body a few bytes at a time (slow, never idle for the bound).
 */
const IDLE_MS = 1000;

type Behaviour = 'silent' | 'stalls-mid-body' | 'trickles';

/** The object the stand-ins serve: 15 bytes. */
const BODY = Buffer.from('fifteen bytes!!');

async function standIn(
  behaviour: Behaviour,
): Promise<{ url: string; server: Server; open: ServerResponse[] }> {
  const open: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    open.push(res);
    if (behaviour === 'silent') return;
    res.writeHead(200, { 'content-length': BODY.length, 'content-type': 'audio/pcm', etag: '"e"' });
    if (behaviour === 'stalls-mid-body') {
      res.write(BODY.subarray(0, 4));
      return;
    }
    // A byte every 100 ms: 1.5 s in all, longer than the idle bound, never idle for it.
    let sent = 0;
    const timer = setInterval(() => {
      res.write(BODY.subarray(sent, sent + 1));
      sent += 1;
      if (sent === BODY.length) {
        clearInterval(timer);
        res.end();
      }
    }, 100);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, open };
}

async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('the request succeeded');
}

describe('S3BlobStore against a store that hangs', () => {
  const cleanups: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function storeOn(behaviour: Behaviour): Promise<S3BlobStore> {
    const { url, server, open } = await standIn(behaviour);
    const store = new S3BlobStore({
      endpoint: url,
      accessKey: 'k',
      secretKey: 'secret-key-0123',
      bucket: 'audio-cache',
      idleTimeoutMs: IDLE_MS,
    });
    cleanups.push(async () => {
      await store.close();
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return store;
  }

  it('fails every kind of request to a store that never answers, as unreachable and retryable', async () => {
    const store = await storeOn('silent');
    const failures = await Promise.all([
      failureOf(store.put('org/key/take.audio', Buffer.alloc(120_000))),
      failureOf(store.get('org/key/take.audio')),
      failureOf(store.stat('org/key/take.audio')),
      failureOf(store.delete('org/key/take.audio')),
      failureOf(
        (async () => {
          for await (const entry of store.list('org/key/')) void entry;
        })(),
      ),
    ]);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(S3StalledError);
      expect(isStoreUnreachable(failure)).toBe(true);
    }
  });

  it('ends a body that stops mid-way in an error of a store out of reach', async () => {
    const store = await storeOn('stalls-mid-body');
    const stream = await store.getStream('org/key/take.audio');
    const failure = await failureOf(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    );
    // The request is destroyed with S3StalledError; its answer's body ends as Node ends one cut short.
    expect(failure).toMatchObject({ message: 'aborted', code: 'ECONNRESET' });
    expect(isStoreUnreachable(failure)).toBe(true);
  });

  it('does not cut a slow answer that keeps moving', async () => {
    const store = await storeOn('trickles');
    expect(await store.get('org/key/take.audio')).toEqual(BODY);
  });
});
