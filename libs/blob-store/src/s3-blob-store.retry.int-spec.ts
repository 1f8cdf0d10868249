import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3BlobStore } from './s3-blob-store';

/** A loopback stand-in for S3 that answers each PUT as the test says: cut the connection, 200, or 403. */
function fakeS3(answers: Array<'cut' | 200 | 403>): {
  start(): Promise<string>;
  close(): Promise<void>;
  puts: Array<{ path: string; body: Buffer }>;
} {
  const puts: Array<{ path: string; body: Buffer }> = [];
  let server: Server;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      puts.push({ path: req.url ?? '', body: Buffer.concat(chunks) });
      const answer = answers[Math.min(puts.length, answers.length) - 1];
      if (answer === 'cut') req.socket.destroy();
      else if (answer === 200) res.writeHead(200, { etag: '"e"' }).end();
      else
        res
          .writeHead(403, { 'content-type': 'application/xml' })
          .end('<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
    });
  };
  return {
    puts,
    start: () =>
      new Promise((resolve) => {
        server = createServer(handle).listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        );
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('S3BlobStore.put when the connection is lost (loopback fake S3)', () => {
  const body = Buffer.from('RIFF take bytes');

  async function putWith(
    answers: Array<'cut' | 200 | 403>,
  ): Promise<{ result: unknown; puts: Array<{ path: string; body: Buffer }> }> {
    const s3 = fakeS3(answers);
    const endpoint = await s3.start();
    const store = new S3BlobStore({
      endpoint,
      accessKey: 'k',
      secretKey: 's'.repeat(16),
      bucket: 'audio-cache',
    });
    try {
      const result = await store.put('org/key/take.audio', body).then(
        () => 'stored',
        (err: unknown) => err,
      );
      return { result, puts: s3.puts };
    } finally {
      await store.close();
      await s3.close();
    }
  }

  it('sends the same bytes to the same name once more when the first request lost its connection', async () => {
    const { result, puts } = await putWith(['cut', 200]);
    expect(result).toBe('stored');
    expect(puts.map((p) => p.path)).toEqual([
      '/audio-cache/org/key/take.audio',
      '/audio-cache/org/key/take.audio',
    ]);
    expect(puts.every((p) => p.body.equals(body))).toBe(true);
  });

  it('fails after the second lost connection instead of trying on', async () => {
    const { result, puts } = await putWith(['cut', 'cut', 200]);
    expect(result).toMatchObject({ code: 'ECONNRESET' });
    expect(puts).toHaveLength(2);
  });

  it('does not send again when the store answered, even with a refusal', async () => {
    const { result, puts } = await putWith([403, 200]);
    expect(result).toMatchObject({ code: 'AccessDenied' });
    expect(puts).toHaveLength(1);
  });
});
