import Module from 'node:module';

// PGlite's CommonJS build loads Node built-ins with dynamic import(), which Jest's module sandbox rejects
// unless Node runs with --experimental-vm-modules (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG, and the
// rejection crashes the worker). Module._load is Node's own loader (Jest replaces require and createRequire
// but hands tests the real _load), so PGlite and its Prisma adapter always load as in a plain process; in a
// plain process this is exactly what require() does. The adapter comes through the same loader so both share
// one PGlite module (the adapter recognises Postgres errors with instanceof). Loaded on first use: services
// on PostgreSQL never pay for it.
type PgliteModule = typeof import('@electric-sql/pglite');
type AdapterModule = typeof import('pglite-prisma-adapter');
type NodeLoader = { _load(request: string, parent: unknown, isMain: boolean): unknown };

export function loadPglite(): {
  PGlite: PgliteModule['PGlite'];
  PrismaPGlite: AdapterModule['PrismaPGlite'];
} {
  const load = (name: string): unknown =>
    (Module as unknown as NodeLoader)._load(require.resolve(name), null, false);
  const { PGlite } = load('@electric-sql/pglite') as PgliteModule;
  const { PrismaPGlite } = load('pglite-prisma-adapter') as AdapterModule;
  return { PGlite, PrismaPGlite };
}
