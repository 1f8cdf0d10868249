import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * Parametrised SQL straight to the driver, for the few statements on a request's path: Prisma compiles each
 * query it runs (its client engine's WebAssembly compiler, ≈1.5 ms of CPU a query), this does not. Same
 * text on both drivers: `$1`… placeholders with casts where the type matters (`$1::uuid`). Rows come back
 * as the driver parses them: numbers for int4, booleans, Dates for timestamptz, strings for uuid and text.
 */
export interface Sql {
  query<Row>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

/**
 * Each distinct statement is prepared once per connection (pg names it) and then only bound and executed:
 * Postgres skips parsing and planning it again on the lookup every miss waits for. The statements are
 * fixed texts in the code, so the names stay few.
 */
export function poolSql(pool: pg.Pool): Sql {
  const names = new Map<string, string>();
  return {
    query: async <Row>(text: string, params: readonly unknown[] = []) => {
      let name = names.get(text);
      if (name === undefined) {
        name = `router_${names.size + 1}`;
        names.set(text, name);
      }
      return (await pool.query({ name, text, values: params as unknown[] })).rows as Row[];
    },
  };
}

export function pgliteSql(pglite: PGlite): Sql {
  return {
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await pglite.query<Row>(text, params as unknown[])).rows,
  };
}
