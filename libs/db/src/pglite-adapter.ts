import type { PGlite } from '@electric-sql/pglite';
import type { SqlDriverAdapterFactory } from '@prisma/client/runtime/client';
import { loadPglite } from './pglite-loader';

// pglite-prisma-adapter 0.6.1 (the last for Prisma 6) leaves two gaps that adapter-pg fills: it passes
// Postgres errors through as kind "postgres" (so a unique violation is not Prisma's P2002), and it hands
// Bytes arguments to PGlite still base64-encoded, as Prisma's query compiler sends them. These wrappers
// close both gaps without touching the rest of its behaviour. It was typed against Prisma 6.10's adapter
// interface, whose argTypes were plain strings; it never reads them, so the 6.19 types below apply.

type SqlDriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory['connect']>>;
type Transaction = Awaited<ReturnType<SqlDriverAdapter['startTransaction']>>;
type SqlQuery = Parameters<SqlDriverAdapter['queryRaw']>[0];

interface PostgresErrorCause {
  kind: 'postgres';
  code: string;
  message?: string;
  detail?: string;
  column?: string;
}

/** The shape Prisma recognises (`name` + `cause`); mirrors @prisma/driver-adapter-utils' DriverAdapterError. */
class DriverAdapterError extends Error {
  override name = 'DriverAdapterError';
  constructor(override readonly cause: Record<string, unknown>) {
    super(typeof cause['message'] === 'string' ? cause['message'] : String(cause['kind']));
  }
}

function postgresCause(error: unknown): PostgresErrorCause | undefined {
  // Duck-typed, not instanceof: the adapter may live in another realm (see pglite-loader.ts).
  if (typeof error !== 'object' || error === null || (error as Error).name !== 'DriverAdapterError')
    return undefined;
  const cause = (error as { cause?: unknown }).cause as Partial<PostgresErrorCause> | undefined;
  return cause?.kind === 'postgres' && typeof cause.code === 'string'
    ? (cause as PostgresErrorCause)
    : undefined;
}

/** Maps the Postgres codes Prisma has its own error kinds for, the way adapter-pg does. */
export function mapPostgresError(error: unknown): unknown {
  const cause = postgresCause(error);
  if (!cause) return error;
  const original = { originalCode: cause.code, originalMessage: cause.message };
  if (cause.code === '23505') {
    const fields = /Key \(([^)]+)\)/.exec(cause.detail ?? '')?.[1]?.split(', ');
    return new DriverAdapterError({
      ...original,
      kind: 'UniqueConstraintViolation',
      constraint: fields ? { fields } : undefined,
    });
  }
  if (cause.code === '23503') {
    return new DriverAdapterError({
      ...original,
      kind: 'ForeignKeyConstraintViolation',
      constraint: cause.column ? { fields: [cause.column] } : undefined,
    });
  }
  return error;
}

/** Decodes the base64 strings Prisma sends for Bytes parameters. */
export function decodeBytesArgs(query: SqlQuery): SqlQuery {
  const decode = (value: unknown): unknown =>
    typeof value === 'string'
      ? Buffer.from(value, 'base64')
      : Array.isArray(value)
        ? value.map(decode)
        : value;
  const args = query.args.map((arg, i) => (query.argTypes[i]?.scalarType === 'bytes' ? decode(arg) : arg));
  return { ...query, args };
}

async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw mapPostgresError(error);
  }
}

function wrapQueryable<T extends SqlDriverAdapter | Transaction>(inner: T): T {
  const queryRaw = inner.queryRaw.bind(inner);
  const executeRaw = inner.executeRaw.bind(inner);
  inner.queryRaw = (query) => mapped(() => queryRaw(decodeBytesArgs(query)));
  inner.executeRaw = (query) => mapped(() => executeRaw(decodeBytesArgs(query)));
  return inner;
}

export function wrapPgliteAdapter(inner: SqlDriverAdapter, pglite: PGlite): SqlDriverAdapter {
  wrapQueryable(inner);
  const startTransaction = inner.startTransaction.bind(inner);
  inner.startTransaction = async (isolationLevel) => wrapQueryable(await startTransaction(isolationLevel));
  // The stock executeScript neither awaits the script nor reports its errors.
  inner.executeScript = async (script) => {
    await pglite.exec(script);
  };
  return inner;
}

/** A Prisma driver adapter factory over one PGlite instance (one session: see README). */
export function pgliteAdapterFactory(pglite: PGlite): SqlDriverAdapterFactory {
  const inner = new (loadPglite().PrismaPGlite)(pglite);
  return {
    provider: 'postgres',
    adapterName: inner.adapterName,
    connect: async () => wrapPgliteAdapter((await inner.connect()) as unknown as SqlDriverAdapter, pglite),
  };
}
