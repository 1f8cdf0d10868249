/** What a use of the database refused by an open breaker fails with (`isStoreUnreachable` knows its code). */
export class DatabaseOutOfReachError extends Error {
  readonly code = 'DATABASE_OUT_OF_REACH';

  constructor() {
    super('PostgreSQL out of reach: a recent query found it down or hanging; it is probed until it answers');
    this.name = 'DatabaseOutOfReachError';
  }
}

/**
 * One pool's memory that its server does not answer, so that a hang costs the queries in flight one bounded
 * wait, not every later query one each. A server that hangs holds each query for the pool's timeouts; once a
 * wait has run out so (an answer, a connection, a free connection of the pool), the breaker opens: every new
 * use of the pool is refused at once, and the outage's fallbacks answer (what each process holds, the blob
 * store without the index). While it is open, `probe` (a query of its own, bounded by the pool's timeouts) runs
 * at once, then every `retryMs` after the last one ended; the first query the server answers, the probe's or
 * one that was in flight, closes it. A failure that cost no wait (a refused connection: a server that is
 * stopped) opens nothing: trying again costs nothing, and the first query after the server is back succeeds.
 * A failure the server itself answered (a statement it cancelled, a shutdown it announced) proves it reachable.
 */
export class ReachBreaker {
  private open = false;
  private probing = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: { retryMs: number; probe: () => Promise<void> }) {}

  /** The refusal for a new use of the database now, or undefined to go ahead. */
  refusal(): DatabaseOutOfReachError | undefined {
    return this.open ? new DatabaseOutOfReachError() : undefined;
  }

  /** How a query, or a connection attempt (`error` only), ended. */
  settled(error: unknown): void {
    if (error === undefined || error === null || answeredByServer(error)) {
      this.open = false;
      clearTimeout(this.timer);
      this.timer = undefined;
    } else if (waitedOut(error) && !this.open) {
      this.open = true;
      this.scheduleProbe(0);
    }
  }

  /** No more probes (the pool is ending). */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private scheduleProbe(delayMs: number): void {
    if (!this.open || this.stopped || this.probing || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.probing = true;
      // The probe's outcome reaches `settled` as any query's does.
      void this.options
        .probe()
        .catch(() => undefined)
        .finally(() => {
          this.probing = false;
          this.scheduleProbe(this.options.retryMs);
        });
    }, delayMs);
    this.timer.unref();
  }
}

/**
 * node-postgres's failures of a wait that ran out: an answer (the pool's `query_timeout`), a connection
 * (`connectionTimeoutMillis`), a free connection of the pool (the same bound).
 */
const WAITED_OUT =
  /^(Query read timeout|Connection terminated due to connection timeout|timeout exceeded when trying to connect)$/;

function waitedOut(error: unknown): boolean {
  const message =
    typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' && WAITED_OUT.test(message);
}

/** An error PostgreSQL sent (node-postgres gives those a severity); the server was reached. */
function answeredByServer(error: unknown): boolean {
  return typeof error === 'object' && typeof (error as { severity?: unknown }).severity === 'string';
}
