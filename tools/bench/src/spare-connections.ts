/** A connection the load generator keeps between the requests that use it. */
export interface SpareConnection {
  /** Whether a request may go on it: open, and not left in an unknown state by one that failed. */
  readonly usable: boolean;
  close(): unknown;
}

/**
 * Runs `use` on a connection from `spares` (one opened when none is usable) and keeps it for the next request
 * while it is usable; returns why the request failed, or undefined. A spare the server closed while it waited
 * (a socket's idle limit) is closed and passed over: a request sent on it would go nowhere and hang until its
 * timeout.
 */
export async function onSpare<C extends SpareConnection>(
  spares: C[],
  open: () => Promise<C>,
  use: (client: C) => Promise<string | undefined>,
): Promise<string | undefined> {
  let client: C | undefined;
  try {
    client = takeUsable(spares) ?? (await open());
    return await use(client);
  } catch (error) {
    return error instanceof Error ? error.message : 'error';
  } finally {
    if (client?.usable) spares.push(client);
    else await client?.close();
  }
}

/** The most recently kept usable spare; those no longer usable on the way are closed and dropped. */
function takeUsable<C extends SpareConnection>(spares: C[]): C | undefined {
  for (let spare = spares.pop(); spare !== undefined; spare = spares.pop()) {
    if (spare.usable) return spare;
    void spare.close();
  }
  return undefined;
}
