import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { connect, createInbox, type Msg, type NatsConnection } from 'nats';
import pg from 'pg';
import { Pool } from 'undici';
import { S3BlobStore, type S3BlobStoreOptions } from '@router/blob-store';
import { NAIVE_INDEX_TABLE as INDEX_TABLE } from './load-process';
import { plainForward } from './plain-forward';

/**
 * A benchmark reference, never used by the router: the "naive gateway → app → NATS → worker chain",
 * built here so that the router's figures can be set beside it on the same machine and the same body. Each
 * role is written as such a chain is written the first time, and kept that way on purpose:
 *
 * - gateway: refuses a request without a key header (it checks nothing more) and forwards it to the app over
 *   a keep-alive pool, bodies piped, as the bare proxy does;
 * - app: reads the body whole, subscribes a fresh inbox for the request, publishes the body as JSON to the
 *   worker with that inbox as the reply subject, and writes each message that comes back to the response as
 *   raw bytes until an empty one ends it: no flow control, no framing;
 * - worker: (queue group `naive`) posts each body to the vendor and publishes each chunk of the answer as it
 *   arrives, then an empty message (only the empty message when the vendor fails: the app then answers an
 *   empty 200, which the load generator counts as an error).
 *
 * A request with `x-naive-cache: 1` (the `chain-cached` variant) also has the least cache write the issue
 * asks of a miss, done after the answer's last chunk and before the empty message, as the router's worker
 * does it: the whole take in one PUT to the blob store (the router's own `S3BlobStore.put`, so the write is
 * the same), then a NATS request to the indexer, which inserts one row with one statement and answers. It
 * checks, counts and tells nothing more (no retention, no usage, no event to serving apps). Set beside
 * `chain`, it is what caching a miss costs at the least with these parts; set beside the router's miss, what
 * the router spends on everything else.
 *
 * Forked four times by main.ts (through load-process.ts), one role per process:
 * `gateway <appUrl>`, `app <natsUrl> <subject>`, `worker <natsUrl> <subject> <vendorUrl>` (the blob store
 * in `NAIVE_CHAIN_S3`, JSON of S3BlobStoreOptions) and `indexer <natsUrl> <subject>` (the database in
 * `DATABASE_URL`). Each reports `{ port }` over IPC once it serves (0 for the two that listen on NATS only).
 */

/** What the app asks the worker for: the vendor's own request, as the client sent it. */
interface Job {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Whether the take is written to the blob store and indexed once it is complete. */
  cache: boolean;
}

/** What the worker asks the indexer to insert for a take it has written. */
interface IndexRow {
  name: string;
  byteSize: number;
}

/** The headers the worker passes on: the vendor's key and the body's type. */
const PASSED_HEADERS = ['api-subscription-key', 'content-type'];

/**
 * Not part of what the chain stands for: without it, a lost reply (a worker gone) would hold a benchmark
 * request, and with it the whole phase, until undici's 300 s body timeout.
 */
const REPLY_TIMEOUT_MS = 15_000;

const keepAlive = { keepAliveTimeout: 120_000, keepAliveMaxTimeout: 600_000 };

function gateway(appUrl: string): { server: Server; close(): Promise<void> } {
  const pool = new Pool(appUrl, keepAlive);
  const forward = plainForward(pool);
  const server = createServer({ keepAliveTimeout: 120_000 }, (req, res) => {
    // All a naive gateway checks: that some key is there (whoever is behind it checks whether it is valid).
    if (req.headers.authorization === undefined && req.headers['api-subscription-key'] === undefined) {
      req.resume();
      res.writeHead(401).end();
      return;
    }
    forward(req, res);
  });
  return { server, close: () => pool.close() };
}

function app(nc: NatsConnection, subject: string): Server {
  return createServer({ keepAliveTimeout: 120_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const name of PASSED_HEADERS) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const job: Job = {
        path: req.url ?? '/',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        cache: req.headers['x-naive-cache'] === '1',
      };
      const inbox = createInbox();
      const sub = nc.subscribe(inbox, {
        callback: (error, msg) => {
          if (res.writableEnded) return;
          if (error) return end(502);
          if (msg.data.length === 0) return end(200);
          if (!res.headersSent) res.writeHead(200, { 'content-type': 'audio/pcm' });
          res.write(msg.data);
        },
      });
      const timer = setTimeout(() => end(504), REPLY_TIMEOUT_MS);
      const done = (): void => {
        clearTimeout(timer);
        if (!sub.isClosed()) sub.unsubscribe();
      };
      const end = (status: number): void => {
        done();
        if (!res.headersSent) res.writeHead(status);
        res.end();
      };
      // A client that goes away before the end: the inbox is of no more use.
      res.once('close', done);
      nc.publish(subject, JSON.stringify(job), { reply: inbox });
    });
  });
}

function worker(
  nc: NatsConnection,
  subject: string,
  vendorUrl: string,
  blobs: S3BlobStore,
): { close(): Promise<void> } {
  const pool = new Pool(vendorUrl, keepAlive);
  const store = async (take: Buffer[]): Promise<void> => {
    const audio = Buffer.concat(take);
    const row: IndexRow = { name: `naive-chain/${randomUUID()}`, byteSize: audio.length };
    await blobs.put(row.name, audio, { contentType: 'audio/pcm' });
    await nc.request(`${subject}.index`, JSON.stringify(row), { timeout: REPLY_TIMEOUT_MS });
  };
  const take = async (reply: string, msg: Msg): Promise<void> => {
    try {
      const job = msg.json<Job>();
      const answer = await pool.request({
        method: 'POST',
        path: job.path,
        headers: job.headers,
        body: job.body,
      });
      if (answer.statusCode >= 400) {
        await answer.body.dump();
      } else {
        const audio: Buffer[] = [];
        for await (const chunk of answer.body as AsyncIterable<Buffer>) {
          nc.publish(reply, chunk);
          if (job.cache) audio.push(chunk);
        }
        if (job.cache) await store(audio);
      }
    } catch {
      // The empty message below ends the reply either way.
    }
    nc.publish(reply);
  };
  nc.subscribe(subject, {
    queue: 'naive',
    callback: (error, msg) => {
      if (error || !msg.reply) return;
      void take(msg.reply, msg);
    },
  });
  return { close: () => pool.close() };
}

async function indexer(nc: NatsConnection, subject: string, databaseUrl: string): Promise<pg.Pool> {
  const db = new pg.Pool({ connectionString: databaseUrl });
  await db.query(
    `CREATE TABLE IF NOT EXISTS ${INDEX_TABLE} (name text PRIMARY KEY, byte_size int NOT NULL, ` +
      'created_at timestamptz NOT NULL DEFAULT now())',
  );
  nc.subscribe(`${subject}.index`, {
    callback: (error, msg) => {
      if (error) return;
      const row = msg.json<IndexRow>();
      db.query(
        `INSERT INTO ${INDEX_TABLE} (name, byte_size) VALUES ($1, $2) ` +
          'ON CONFLICT (name) DO UPDATE SET byte_size = EXCLUDED.byte_size',
        [row.name, row.byteSize],
      ).then(
        () => msg.respond(),
        // The worker's request then times out; the load generator sees the take, not the failure.
        () => undefined,
      );
    },
  });
  return db;
}

/** Reports the port over IPC and stops on SIGTERM or when main.ts goes away. */
function serve(server: Server | undefined, close: () => Promise<void>): void {
  const ready = (port: number): void => void process.send?.({ port });
  if (server) {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      ready(typeof address === 'object' && address ? address.port : 0);
    });
  } else {
    ready(0);
  }
  const stop = (): void => {
    server?.close();
    server?.closeAllConnections();
    void close()
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('disconnect', stop);
}

async function main(): Promise<void> {
  const [role, ...args] = process.argv.slice(2);
  const usage = (): never => {
    process.stderr.write(
      'naive-chain: run me through child_process.fork with gateway <appUrl> | app <natsUrl> <subject> | ' +
        'worker <natsUrl> <subject> <vendorUrl> (NAIVE_CHAIN_S3) | indexer <natsUrl> <subject> (DATABASE_URL)\n',
    );
    process.exit(2);
  };
  if (!process.send) usage();
  const [first = '', subject = '', vendorUrl = ''] = args;
  if (role === 'gateway' && first) {
    const served = gateway(first);
    serve(served.server, () => served.close());
  } else if (role === 'app' && first && subject) {
    const nc = await connect({ servers: first });
    serve(app(nc, subject), () => nc.drain());
  } else if (role === 'worker' && first && subject && vendorUrl && process.env['NAIVE_CHAIN_S3']) {
    const blobs = new S3BlobStore(JSON.parse(process.env['NAIVE_CHAIN_S3']) as S3BlobStoreOptions);
    const nc = await connect({ servers: first });
    const taking = worker(nc, subject, vendorUrl, blobs);
    // The subscription is at the server before the app can publish the first take.
    await nc.flush();
    serve(undefined, async () => {
      await nc.drain();
      await taking.close();
      await blobs.close();
    });
  } else if (role === 'indexer' && first && subject && process.env['DATABASE_URL']) {
    const nc = await connect({ servers: first });
    const db = await indexer(nc, subject, process.env['DATABASE_URL']);
    await nc.flush();
    serve(undefined, async () => {
      await nc.drain();
      await db.end();
    });
  } else {
    usage();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`naive-chain: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
