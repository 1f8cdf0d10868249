import { existsSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { Client as S3Client } from 'minio';
import { connect as natsConnect, type NatsConnection } from 'nats';
import { Client as PgClient } from 'pg';
import { waitFor } from './processes';
import {
  type PrivateNats,
  type PrivatePostgres,
  type PrivateS3,
  startPrivateNats,
  startPrivatePostgres,
  startPrivateS3,
} from './private-services';

/** Whether anything accepts a connection on the loopback port right now. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('private NATS server', () => {
  let nats: PrivateNats;
  let nc: NatsConnection | undefined;

  beforeAll(async () => {
    nats = await startPrivateNats();
  });
  afterAll(async () => {
    await nc?.close();
    await nats.close();
  });

  it('is not the shared server, and a client connected to it reconnects after stop and restart', async () => {
    expect(nats.port).not.toBe(4222);
    nc = await natsConnect({
      servers: nats.url,
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 100,
    });
    const client = nc;
    const sub = client.subscribe('echo', { callback: (_err, msg) => msg.respond(msg.data) });
    await client.flush();
    expect(new TextDecoder().decode((await client.request('echo', 'one', { timeout: 2000 })).data)).toBe(
      'one',
    );

    await nats.stop();
    expect(nats.running).toBe(false);
    expect(await accepts(nats.port)).toBe(false);
    await expect(client.request('echo', 'two', { timeout: 300 })).rejects.toThrow();

    await nats.restart();
    expect(nats.running).toBe(true);
    expect(nats.url).toBe(`nats://127.0.0.1:${nats.port}`);
    await waitFor(
      'the client to reconnect and its subscription to answer',
      async () =>
        new TextDecoder().decode((await client.request('echo', 'three', { timeout: 300 })).data) === 'three',
      10_000,
    );
    sub.unsubscribe();
  });
});

describe('private S3 emulator', () => {
  let s3: PrivateS3;

  beforeAll(async () => {
    s3 = await startPrivateS3();
  });
  afterAll(async () => {
    await s3.close();
  });

  it('keeps its objects across stop and restart on the same port, and removes them on close', async () => {
    expect(s3.port).not.toBe(4569);
    const url = new URL(s3.s3.endpoint);
    const client = new S3Client({
      endPoint: url.hostname,
      port: Number(url.port),
      useSSL: false,
      accessKey: s3.s3.accessKey,
      secretKey: s3.s3.secretKey,
      region: 'us-east-1',
    });
    await client.makeBucket('private-test', 'us-east-1');
    await client.putObject('private-test', 'a/b', Buffer.from('kept'));

    await s3.stop();
    expect(s3.running).toBe(false);
    await expect(client.statObject('private-test', 'a/b')).rejects.toThrow();

    await s3.restart();
    expect(s3.running).toBe(true);
    const chunks: Buffer[] = [];
    for await (const chunk of await client.getObject('private-test', 'a/b')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('kept');

    const { directory } = s3;
    expect(existsSync(directory)).toBe(true);
    await s3.close();
    expect(existsSync(directory)).toBe(false);
    expect(await accepts(s3.port)).toBe(false);
  });
});

describe('private PostgreSQL', () => {
  let pg: PrivatePostgres;

  beforeAll(async () => {
    pg = await startPrivatePostgres();
  }, 60_000);
  afterAll(async () => {
    await pg?.close();
  });

  /** A client that gives up on connecting or on an answer after a short while (pg's own timeouts). */
  const patientClient = (): PgClient =>
    new PgClient({ connectionString: pg.url, connectionTimeoutMillis: 500, query_timeout: 500 });

  it('hangs while paused, accepting connections and answering nothing, and answers again once resumed', async () => {
    const open = patientClient();
    await open.connect();
    try {
      expect((await open.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      pg.pause();
      try {
        expect(await accepts(pg.port)).toBe(true);
        await expect(open.query('SELECT 1')).rejects.toThrow('Query read timeout');
        const fresh = patientClient();
        await expect(fresh.connect()).rejects.toThrow(/timeout/);
      } finally {
        pg.resume();
      }
      const after = patientClient();
      await after.connect();
      expect((await after.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await after.end();
    } finally {
      await open.end().catch(() => undefined);
    }
  });
});
