import { type BlobStore, createBlobStore } from '@router/blob-store';
import { type Bus, createBus } from '@router/bus';
import { createDatabase, type Database } from '@router/db';
import type { Health } from '@router/observability';
import { closeAll, type Stoppable } from './run-service';

export interface InfrastructureConfig {
  NATS_URL: string;
  NATS_SUBJECT_PREFIX?: string | undefined;
  NATS_STREAM_LIVENESS_MS?: number;
  NATS_RECONNECT_DELAY_MS?: number;
  DATABASE_URL?: string;
  DATABASE_CONNECT_TIMEOUT_MS?: number;
  DATABASE_QUERY_TIMEOUT_MS?: number;
  S3_ENDPOINT?: string;
  S3_ACCESS_KEY?: string;
  S3_SECRET_KEY?: string;
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_IDLE_TIMEOUT_MS?: number;
}

export interface Infrastructure<D extends boolean, B extends boolean> extends Stoppable {
  bus: Bus;
  db: D extends true ? Database : undefined;
  blobs: B extends true ? BlobStore : undefined;
}

/**
 * What a distributed service connects to (NATS always; Postgres and S3 where it needs them), each with the
 * readiness check that makes `/readyz` name it when it is down.
 */
export async function connectInfrastructure<D extends boolean, B extends boolean>(
  service: string,
  config: InfrastructureConfig,
  health: Health,
  needs: { database: D; blobs: B },
): Promise<Infrastructure<D, B>> {
  const bus = createBus({
    kind: 'nats',
    url: config.NATS_URL,
    name: service,
    ...(config.NATS_SUBJECT_PREFIX ? { prefix: config.NATS_SUBJECT_PREFIX } : {}),
    ...(config.NATS_STREAM_LIVENESS_MS ? { streamLivenessMs: config.NATS_STREAM_LIVENESS_MS } : {}),
    ...(config.NATS_RECONNECT_DELAY_MS ? { reconnectDelayMs: config.NATS_RECONNECT_DELAY_MS } : {}),
  });
  health.addCheck({ name: 'nats', check: () => bus.status() === 'connected' });
  const parts: Stoppable[] = [bus];
  let db: Database | undefined;
  let blobs: BlobStore | undefined;
  try {
    if (needs.database) {
      db = await createDatabase({
        url: required(config.DATABASE_URL, 'DATABASE_URL'),
        timeouts: {
          ...(config.DATABASE_CONNECT_TIMEOUT_MS
            ? { connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS }
            : {}),
          ...(config.DATABASE_QUERY_TIMEOUT_MS ? { queryTimeoutMs: config.DATABASE_QUERY_TIMEOUT_MS } : {}),
        },
      });
      parts.push(db);
      const prisma = db.prisma;
      // An outage of the database is served through (docs/operations.md, "A PostgreSQL outage"): the app
      // stays ready, so replicas are not all taken out of their Services at once; the gauge still says it.
      health.addCheck({
        name: 'database',
        check: () => prisma.$queryRaw`SELECT 1`.then(() => true),
        degradesOnly: true,
      });
    }
    if (needs.blobs) {
      const store = createBlobStore({
        kind: 's3',
        endpoint: required(config.S3_ENDPOINT, 'S3_ENDPOINT'),
        accessKey: required(config.S3_ACCESS_KEY, 'S3_ACCESS_KEY'),
        secretKey: required(config.S3_SECRET_KEY, 'S3_SECRET_KEY'),
        bucket: required(config.S3_BUCKET, 'S3_BUCKET'),
        ...(config.S3_REGION ? { region: config.S3_REGION } : {}),
        ...(config.S3_IDLE_TIMEOUT_MS ? { idleTimeoutMs: config.S3_IDLE_TIMEOUT_MS } : {}),
      });
      parts.push(store);
      blobs = store;
      try {
        await readyWithin(store, S3_READY_WAIT_MS);
      } catch (error) {
        throw new Error(`The S3 store at S3_ENDPOINT=${config.S3_ENDPOINT} is not usable: ${String(error)}`);
      }
      health.addCheck({ name: 'blob-store', check: () => store.ping() });
    }
  } catch (error) {
    await closeAll(...parts).close();
    throw error;
  }
  const stop = closeAll(...parts);
  return { bus, db, blobs, close: () => stop.close() } as Infrastructure<D, B>;
}

/**
 * How long a start waits for the S3 store to answer: an app restarted while the store blinks (it restarts
 * too, or answers 500 for a moment) starts once it is back, instead of exiting into a restart loop.
 */
const S3_READY_WAIT_MS = 30_000;
const S3_READY_PAUSE_MS = 500;

/** `store.ready()`, tried again every half second until it succeeds or `ms` has passed (then its last error). */
export async function readyWithin(
  store: Pick<BlobStore, 'ready'>,
  ms: number,
  pauseMs = S3_READY_PAUSE_MS,
): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await store.ready();
    } catch (error) {
      if (Date.now() + pauseMs > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/** Registers the bus readiness check for processes that make their own bus (the standalone router). */
export function registerBusReadiness(health: Health, bus: Bus): void {
  health.addCheck({ name: 'nats', check: () => bus.status() === 'connected' });
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} is required`);
  return value;
}
