import pg from 'pg';
import {
  CatalogTextClient,
  ignoringIdleErrors,
  pgPoolConfig,
  type PgTimeouts,
  REACH_RETRY_MS,
} from './pg-adapter';
import { ReachBreaker } from './reach-breaker';

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, done?: () => void) => void;

/**
 * The services' pool: `createPgPool`'s, with `timeouts`, and a `ReachBreaker`. Its clients tell the breaker
 * how each query ended, and its `connect` (which its own `query` and the Prisma adapter's transactions go
 * through) is refused at once while the breaker is open; the breaker's probe takes a connection past that.
 */
export function createGuardedPgPool(url: string, max: number | undefined, timeouts: PgTimeouts): pg.Pool {
  class GuardedClient extends CatalogTextClient {
    protected override onQueryEnd(error: unknown): void {
      breaker.settled(error);
    }
  }
  class GuardedPool extends pg.Pool {
    /** pg's own connect, past the breaker; its failure is told to the breaker. */
    private connectPast(...args: unknown[]): unknown {
      const connect = (super.connect as (...a: unknown[]) => unknown).bind(this);
      const callback = args[0] as ConnectCallback | undefined;
      if (callback) {
        return connect((err: Error | undefined, client?: pg.PoolClient, done?: () => void) => {
          if (err) breaker.settled(err);
          callback(err, client, done);
        });
      }
      return (connect() as Promise<pg.PoolClient>).catch((error: unknown) => {
        breaker.settled(error);
        throw error;
      });
    }

    // pg's connect() has a callback and a promise form; both are kept.
    override connect(...args: unknown[]): never {
      const refusal = breaker.refusal();
      if (!refusal) return this.connectPast(...args) as never;
      const callback = args[0] as ConnectCallback | undefined;
      if (!callback) return Promise.reject(refusal) as never;
      process.nextTick(() => callback(refusal));
      return undefined as never;
    }

    async probe(): Promise<void> {
      const client = (await this.connectPast()) as pg.PoolClient;
      let failure: Error | undefined;
      try {
        await client.query('SELECT 1');
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
      } finally {
        client.release(failure);
      }
    }

    override end(...args: unknown[]): never {
      breaker.stop();
      return (super.end as (...a: unknown[]) => unknown).apply(this, args) as never;
    }
  }
  const pool = new GuardedPool({ ...pgPoolConfig(url, max, timeouts), Client: GuardedClient });
  const breaker = new ReachBreaker({
    retryMs: timeouts.reachRetryMs ?? REACH_RETRY_MS,
    probe: () => pool.probe(),
  });
  return ignoringIdleErrors(pool);
}
