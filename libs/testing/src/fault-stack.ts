import {
  type PrivateNats,
  type PrivatePostgres,
  type PrivateS3,
  startPrivateNats,
  startPrivatePostgres,
  startPrivateS3,
} from './private-services';
import { createScratchDatabase, migrateScratchDatabase, type ScratchDatabase } from './services';
import { type RunningStack, startStack } from './stack';

/** A stack whose NATS, S3 store and database are its own, so a fault test can stop and start them. */
export interface FaultStack {
  db: ScratchDatabase;
  nats: PrivateNats;
  s3: PrivateS3;
  /** The PostgreSQL server of the stack's own, when asked for (`privatePostgres`); else the database is a scratch one. */
  pg?: PrivatePostgres;
  stack: RunningStack;
  /** Stops the apps, the servers and drops the database. */
  stop: () => Promise<void>;
}

/**
 * A migrated scratch database, a private NATS and S3 emulator (never the shared ones), and the stack (two
 * workers) on them, with `env` over the stack's defaults. What was started is stopped again if a later step
 * fails.
 */
export async function startFaultStack(options: {
  label: string;
  logDir: string;
  bucket: string;
  env?: Record<string, string>;
  /** A PostgreSQL server of the stack's own (`pg`), so the test can stop and start it; else a scratch database on the shared one. */
  privatePostgres?: boolean;
}): Promise<FaultStack> {
  const started: Array<() => Promise<unknown>> = [];
  const stop = async (): Promise<void> => {
    for (const undo of started.reverse()) await undo().catch(() => undefined);
  };
  try {
    let pg: PrivatePostgres | undefined;
    let db: ScratchDatabase;
    if (options.privatePostgres) {
      const server = await startPrivatePostgres({ logDir: options.logDir });
      pg = server;
      db = { url: server.url, name: 'router', drop: () => server.close() };
    } else db = await createScratchDatabase(options.label);
    started.push(() => db.drop());
    await migrateScratchDatabase(db);
    const nats = await startPrivateNats({ logDir: options.logDir });
    started.push(() => nats.close());
    const s3 = await startPrivateS3({ logDir: options.logDir });
    started.push(() => s3.close());
    const stack = await startStack({
      databaseUrl: db.url,
      natsUrl: nats.url,
      s3: { ...s3.s3, bucket: options.bucket },
      logDir: options.logDir,
      workers: 2,
      ...(options.env ? { env: options.env } : {}),
    });
    started.push(() => stack.stop());
    return { db, nats, s3, ...(pg ? { pg } : {}), stack, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
