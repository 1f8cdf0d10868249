import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';

// @prisma/adapter-pg 6.19 rejects the catalog types `"char"` (OID 18) and `name` (OID 19) (upstream
// prisma/orm#27403), which the schema engine reads while migrating and `$queryRaw` may read. pg already
// returns both as strings. The client below relabels them as text so the adapter accepts them, and
// remembers which columns were `"char"` (keyed by the rows array, which the adapter passes through), so that
// withCatalogTypes() can report those as Prisma's Character type: the schema engine panics when a
// `pg_constraint.contype` column (a CHECK constraint's row) arrives as Text.
const CHAR_OID = 18;
const NAME_OID = 19;
const TEXT_OID = 25;
const CHARACTER_COLUMN = 6; // ColumnTypeEnum.Character in @prisma/driver-adapter-utils

const charColumnsByRows = new WeakMap<object, number[]>();

type PgResultLike = { fields?: { dataTypeID: number }[]; rows?: unknown[] };

export function relabelCatalogColumns<T>(result: T): T {
  for (const r of Array.isArray(result) ? (result as unknown[]) : [result]) {
    const { fields, rows } = (r ?? {}) as PgResultLike;
    const charColumns: number[] = [];
    fields?.forEach((field, i) => {
      if (field.dataTypeID === CHAR_OID) charColumns.push(i);
      if (field.dataTypeID === CHAR_OID || field.dataTypeID === NAME_OID) field.dataTypeID = TEXT_OID;
    });
    if (charColumns.length > 0 && rows) charColumnsByRows.set(rows, charColumns);
  }
  return result;
}

type Callback = (err: Error | null, res: unknown) => void;

/** A pg client whose results never carry the catalog OIDs the Prisma adapter rejects. */
export class CatalogTextClient extends pg.Client {
  /** How each query ended (its error, or undefined); the pool's breaker listens. */
  protected onQueryEnd(_error: unknown): void {
    // Nothing by default: a client outside a guarded pool.
  }

  // pg's query() has a dozen overloads; this only rewrites field metadata on the way out, so the wrapper
  // takes them all as unknown and returns `never` (assignable to every overload's result).
  override query(...args: unknown[]): never {
    const callbackAt = args.findIndex((a) => typeof a === 'function');
    if (callbackAt >= 0) {
      const callback = args[callbackAt] as Callback;
      args[callbackAt] = (err: Error | null, res: unknown) => {
        this.onQueryEnd(err ?? undefined);
        callback(err, err ? res : relabelCatalogColumns(res));
      };
    }
    const result = (super.query as (...a: unknown[]) => unknown).apply(this, args);
    if (callbackAt < 0 && result instanceof Promise) {
      return result.then(
        (res: unknown) => {
          this.onQueryEnd(undefined);
          return relabelCatalogColumns(res);
        },
        (error: unknown) => {
          this.onQueryEnd(error);
          throw error;
        },
      ) as never;
    }
    return result as never;
  }
}

export type PgDriverAdapter = Awaited<ReturnType<PrismaPg['connect']>>;
type PgTransaction = Awaited<ReturnType<PgDriverAdapter['startTransaction']>>;

function restoreCharColumns<T extends PgDriverAdapter | PgTransaction>(queryable: T): T {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const i of charColumnsByRows.get(result.rows) ?? []) result.columnTypes[i] = CHARACTER_COLUMN;
    return result;
  };
  return queryable;
}

/** Reports `"char"` columns as Character on an adapter whose pool uses CatalogTextClient. */
export function withCatalogTypes(adapter: PgDriverAdapter): PgDriverAdapter {
  restoreCharColumns(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) =>
    restoreCharColumns(await startTransaction(isolationLevel));
  return adapter;
}

/**
 * Bounds on every wait for PostgreSQL, so that a server that hangs (accepts connections and never answers, or
 * never finishes a statement) fails the query instead of holding the request that made it.
 */
export interface PgTimeouts {
  /** Opening a connection, and waiting for one of the pool's, past this fails (pg's `connectionTimeoutMillis`). */
  connectTimeoutMs?: number;
  /**
   * A statement running past this is cancelled by the server (`statement_timeout`, SQLSTATE 57014); one whose
   * answer has not arrived `QUERY_TIMEOUT_MARGIN_MS` later (a server that hangs, a connection cut without a
   * reset) fails in the client. A connection whose query failed is not reused: the pool's query, which the
   * Prisma adapter and `sql` go through, releases it with the error, and the pool closes it.
   */
  queryTimeoutMs?: number;
  /**
   * After a wait on the server ran out (an answer, a connection, a free connection of the pool),
   * new uses are refused at once and the server is probed every this long until it answers (`ReachBreaker`,
   * in the services' pools: `createGuardedPgPool`). Default `REACH_RETRY_MS`.
   */
  reachRetryMs?: number;
}

/** How often a pool whose server is out of reach probes it. */
export const REACH_RETRY_MS = 1000;

/** How much longer than the server's `statement_timeout` the client waits for an answer before giving up. */
export const QUERY_TIMEOUT_MARGIN_MS = 1000;

/**
 * The pool the Prisma adapter runs on. `allowExitOnIdle` lets a process (and the Prisma CLI) exit once its
 * work is done instead of waiting for idle connections to time out. Without `timeouts`, waits are unbounded
 * (the migration and key-rotation tools, whose statements may rightly be long). The services' pools, with
 * timeouts, are `createGuardedPgPool`'s (guarded-pool.ts).
 */
export function createPgPool(url: string, max?: number, timeouts: PgTimeouts = {}): pg.Pool {
  return ignoringIdleErrors(new pg.Pool(pgPoolConfig(url, max, timeouts)));
}

/** The pool's configuration: its server, size, client class and timeouts. */
export function pgPoolConfig(url: string, max?: number, timeouts: PgTimeouts = {}): pg.PoolConfig {
  const { connectTimeoutMs, queryTimeoutMs } = timeouts;
  return {
    connectionString: url,
    allowExitOnIdle: true,
    Client: CatalogTextClient,
    max,
    ...(connectTimeoutMs ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
    ...(queryTimeoutMs
      ? { statement_timeout: queryTimeoutMs, query_timeout: queryTimeoutMs + QUERY_TIMEOUT_MARGIN_MS }
      : {}),
  };
}

/**
 * An idle connection the server ends (a restart, a failover, an administrator, a dropped test database) is
 * emitted as the pool's `error`; unheard, that event would end the process. pg has already discarded the
 * connection, the next query opens a new one, and a database that is really gone fails that query and the
 * readiness check.
 */
export function ignoringIdleErrors(pool: pg.Pool): pg.Pool {
  pool.on('error', () => undefined);
  return pool;
}

/** A Prisma driver adapter factory over `pool` (from createPgPool) with the catalog type fixes. */
export function pgAdapterFactory(pool: pg.Pool, options?: { disposePool?: boolean }) {
  const inner = new PrismaPg(pool, { disposeExternalPool: options?.disposePool ?? false });
  return {
    provider: 'postgres' as const,
    adapterName: inner.adapterName,
    connect: async (): Promise<PgDriverAdapter> => withCatalogTypes(await inner.connect()),
  };
}

/** The same server URL pointing at another database (the URL's parameters are kept). */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

export function assertPostgresUrl(url: string): void {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new Error('the database URL must start with postgresql:// or postgres://');
  }
}

/** host:port/database of a URL, for messages: never the user or password. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}
