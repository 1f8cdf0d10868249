import type { RouterClient, StreamEvent, StreamSession, StreamSettings } from '@speech-router/client';

/** What a wait for the router's next event came to. */
export type NextEvent =
  | { kind: 'event'; event: StreamEvent }
  /** The socket closed cleanly: no more events. */
  | { kind: 'ended' }
  /** The `wake` promise settled first (the caller has something else to do; the event is not lost). */
  | { kind: 'woken' };

/** A read's outcome as kept between waits (a failure is rethrown to whoever reads next). */
type PendingRead = NextEvent | { kind: 'failed'; error: unknown };

/** No event came within the bound while the caller was waiting for one. */
export class RouterTimeoutError extends Error {
  override readonly name: string = 'RouterTimeoutError';
}

/**
 * One `/v1/stream` session, kept open and reused across the agent's replies (one reply at a time). Its events
 * are read through one iterator for its whole life, so a wait that is cut short (by a timeout or a wake-up)
 * leaves the pending read in place and the next call picks it up: no event is ever lost between replies.
 */
export class RouterConnection {
  private readonly events: AsyncIterator<StreamEvent>;
  private pending: Promise<PendingRead> | null = null;
  private settingsKey: string;
  private isClosed = false;

  private constructor(
    readonly session: StreamSession,
    settings: StreamSettings,
  ) {
    this.events = session.events();
    this.settingsKey = JSON.stringify(settings);
    void session.closed.then(() => {
      this.isClosed = true;
    });
  }

  /** Opens a session with these settings (resolves once the router accepted them). */
  static async open(
    client: RouterClient,
    settings: StreamSettings,
    timeoutMs: number,
  ): Promise<RouterConnection> {
    // A signal of its own, not AbortSignal.timeout(): the session keeps the signal it was opened with and
    // would disconnect when it fires, long after the open.
    const opening = new AbortController();
    const timer = setTimeout(() => opening.abort(), timeoutMs);
    try {
      return new RouterConnection(await client.stream(settings, { signal: opening.signal }), settings);
    } catch (error) {
      if (opening.signal.aborted) {
        throw new RouterTimeoutError(`The router did not accept the stream within ${timeoutMs} ms`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether the socket is still open (a connection closed while idle is dropped from the pool). */
  get open(): boolean {
    return !this.isClosed;
  }

  /**
   * Makes these the settings in force: a reply whose settings differ from the last one's sends a `settings`
   * message first. A refusal rejects with the router's `bad_request` naming the field.
   */
  async use(settings: StreamSettings, timeoutMs: number): Promise<void> {
    const key = JSON.stringify(settings);
    if (key === this.settingsKey) return;
    await bounded(
      this.session.updateSettings(settings),
      timeoutMs,
      'The router did not answer the new settings',
    );
    this.settingsKey = key;
  }

  /**
   * The router's next event. `timeoutMs` bounds the wait (none when undefined); `wake` cuts it short without
   * losing the event, which the next call returns.
   */
  async next(timeoutMs: number | undefined, wake?: Promise<unknown>): Promise<NextEvent> {
    // The read outlives a wait it lost: it stays pending here until a caller takes its outcome, and a failure
    // of it is kept as a value, never left unhandled while no reply is reading.
    const pending = (this.pending ??= this.events.next().then(
      (result): PendingRead => (result.done ? { kind: 'ended' } : { kind: 'event', event: result.value }),
      (error: unknown): PendingRead => ({ kind: 'failed', error }),
    ));
    const racers: Array<Promise<PendingRead | 'woken'>> = [pending];
    if (wake) racers.push(wake.then(() => 'woken' as const));
    const race = Promise.race(racers);
    const outcome =
      timeoutMs === undefined
        ? await race
        : await bounded(race, timeoutMs, `No answer from the router within ${timeoutMs} ms`);
    if (outcome === 'woken') return { kind: 'woken' };
    this.pending = null;
    if (outcome.kind === 'failed') throw outcome.error;
    return outcome;
  }

  /** Closes the socket now (the router stops what it was saying for it). */
  close(): void {
    this.session.disconnect();
  }
}

/** The promise, or a RouterTimeoutError once `ms` have passed. */
export async function bounded<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RouterTimeoutError(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
