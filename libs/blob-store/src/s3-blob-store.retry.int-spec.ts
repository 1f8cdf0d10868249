import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3BlobStore } from './s3-blob-store';

/** One object's listing, as S3 answers a ListObjects (v1) request for the prefix `org/key/`. */
const LISTING = `<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>audio-cache</Name><Prefix>org/key/</Prefix>
<Marker></Marker><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated><Contents><Key>org/key/take.audio</Key>
<LastModified>2026-11-29T00:00:00.000Z</LastModified><ETag>"e"</ETag><Size>15</Size><StorageClass>STANDARD</StorageClass>
</Contents></ListBucketResult>`;

/**
 * A loopback stand-in for S3 that answers each request as the test says: cut the connection, 200 (a listing
 * for a GET, an empty body otherwise), or 403.
 */
function fakeS3(answers: Array<'cut' | 200 | 403>): {
  start(): Promise<string>;
  close(): Promise<void>;
  puts: Array<{ method: string; path: string; body: Buffer }>;
} {
  const puts: Array<{ method: string; path: string; body: Buffer }> = [];
  let server: Server;
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      puts.push({ method: req.method ?? '', path: req.url ?? '', body: Buffer.concat(chunks) });
      const answer = answers[Math.min(puts.length, answers.length) - 1];
      if (answer === 'cut') req.socket.destroy();
      else if (answer === 200 && req.method === 'GET')
        res.writeHead(200, { 'content-type': 'application/xml' }).end(LISTING);
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

/** What `act` came to against a fake S3 answering `answers`, and the requests it got. */
async function against(
  answers: Array<'cut' | 200 | 403>,
  act: (store: S3BlobStore) => Promise<unknown>,
): Promise<{ result: unknown; puts: Array<{ method: string; path: string; body: Buffer }> }> {
  const s3 = fakeS3(answers);
  const endpoint = await s3.start();
  const store = new S3BlobStore({
    endpoint,
    accessKey: 'k',
    secretKey: 's'.repeat(16),
    bucket: 'audio-cache',
  });
  try {
    const result = await act(store).catch((err: unknown) => err);
    return { result, puts: s3.puts };
  } finally {
    await store.close();
    await s3.close();
  }
}

describe('S3BlobStore.put when the connection is lost (loopback fake S3)', () => {
  const body = Buffer.from('RIFF take bytes');

  const putWith = (answers: Array<'cut' | 200 | 403>) =>
    against(answers, (store) => store.put('org/key/take.audio', body).then(() => 'stored'));

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

describe('S3BlobStore reads and deletes when the connection is lost (loopback fake S3)', () => {
  const listed = async (store: S3BlobStore): Promise<string[]> => {
    const names: string[] = [];
    for await (const entry of store.list('org/key/')) names.push(entry.name);
    return names;
  };

  it('asks for a page of a listing once more (a take looked for in the blob store alone)', async () => {
    const { result, puts } = await against(['cut', 200], listed);
    expect(result).toEqual(['org/key/take.audio']);
    expect(puts.map((p) => p.method)).toEqual(['GET', 'GET']);
  });

  it('fails a listing after the second lost connection', async () => {
    const { result, puts } = await against(['cut', 'cut', 200], listed);
    expect(result).toMatchObject({ code: 'ECONNRESET' });
    expect(puts).toHaveLength(2);
  });

  it('sends a delete once more, and not after an answer', async () => {
    const cut = await against(['cut', 200], (store) =>
      store.delete('org/key/take.audio').then(() => 'deleted'),
    );
    expect(cut.result).toBe('deleted');
    expect(cut.puts.map((p) => `${p.method} ${p.path}`)).toEqual([
      'DELETE /audio-cache/org/key/take.audio',
      'DELETE /audio-cache/org/key/take.audio',
    ]);
    const refused = await against([403, 200], (store) => store.delete('org/key/take.audio'));
    expect(refused.result).toMatchObject({ code: 'AccessDenied' });
    expect(refused.puts).toHaveLength(1);
  });
});
