/**
 * Node's codes for a connection that could not be made or was lost: the server is down, restarting or cut off.
 */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own: class 08 (connection exception) is matched by its prefix; these are the server shutting
 * down or starting (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), out of
 * connections (53300), and a statement it cancelled (57014): past the pool's `statement_timeout`, a server
 * that does not finish a statement in time (a lock never released, a server overwhelmed) is as good as gone.
 */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);

/**
 * Prisma's codes for a database it cannot reach (P1001), reach in time (P1002, P1008), that closed the
 * connection (P1017), or a pool it waited on in vain (P2024).
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);

/** What Prisma's pg driver adapter names such a failure (`meta.driverAdapterError.cause.kind`). */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

/** The router's own: a database pool's breaker refusing a use while its server is out of reach (libs/db). */
const ROUTER_CODES = new Set(['DATABASE_OUT_OF_REACH']);

/**
 * node-postgres's messages for the same, which carry no code; `Query read timeout` is a query whose answer
 * did not come within the pool's `query_timeout` (a server that hangs).
 */
const PG_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|server closed the connection unexpectedly|Query read timeout/;

/** How deep the `cause` chain is followed (a RouterError over a bus error over the driver's). */
const MAX_CAUSES = 6;

/**
 * Whether a failure says that a store the router needs (PostgreSQL above all) could not be reached: stopped,
 * restarting, cut off or out of connections. Such a failure is the router's retryable `unavailable`, never
 * `internal`; a statement the server answered with an error of its own is not one. Follows `cause` (and
 * Prisma's driver-adapter error), so a wrapped failure is recognised too. Reads the error's shape only.
 */
export function isStoreUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSES && typeof current === 'object' && current !== null; depth++) {
    const { code, message, meta, cause } = current as {
      code?: unknown;
      message?: unknown;
      meta?: { driverAdapterError?: { cause?: { kind?: unknown } } };
      cause?: unknown;
    };
    if (typeof code === 'string') {
      if (CONNECTION_CODES.has(code) || POSTGRES_CODES.has(code) || PRISMA_CODES.has(code)) return true;
      if (ROUTER_CODES.has(code)) return true;
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    }
    const kind = meta?.driverAdapterError?.cause?.kind;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    if (typeof message === 'string' && PG_MESSAGES.test(message)) return true;
    // AggregateError (a connect to each of a host's addresses) carries its causes in `errors`.
    const { errors } = current as { errors?: unknown };
    if (Array.isArray(errors) && errors.some((inner) => isStoreUnreachable(inner))) return true;
    current = cause;
  }
  return false;
}
