// Reads the workspace's source files (repo files only): the import graph must stay free of circles.
import { join, relative } from 'node:path';
import { importCycles, workspaceImportGraph } from './import-graph';

const repoRoot = join(__dirname, '..', '..', '..');

describe('importCycles', () => {
  const cyclesOf = (edges: Record<string, string[]>): string[][] =>
    importCycles(new Map(Object.entries(edges)));

  it('finds none in a graph without a circle, shared imports included', () => {
    expect(cyclesOf({ a: ['b', 'c'], b: ['c'], c: [] })).toEqual([]);
  });

  it('finds a circle of two files once', () => {
    expect(cyclesOf({ a: ['b'], b: ['a'], c: ['a'] })).toEqual([['a', 'b']]);
  });

  it('finds a longer circle with the files that only lead into it left out', () => {
    expect(cyclesOf({ entry: ['a'], a: ['b'], b: ['c'], c: ['a', 'leaf'], leaf: [] })).toEqual([
      ['a', 'b', 'c'],
    ]);
  });

  it('finds a file that imports itself', () => {
    expect(cyclesOf({ a: ['a'] })).toEqual([['a']]);
  });
});

describe('the workspace', () => {
  const graph = workspaceImportGraph(repoRoot);
  const importsOf = (file: string): string[] =>
    (graph.get(join(repoRoot, file)) ?? []).map((target) => relative(repoRoot, target));

  it('resolves relative imports and the path aliases to files', () => {
    expect(importsOf('libs/pipeline/src/piece-resolver.ts')).toEqual(
      expect.arrayContaining(['libs/pipeline/src/hot-tier.ts', 'libs/contracts/src/index.ts']),
    );
  });

  /** Every file `entry` imports, directly or through others. */
  const reachedFrom = (entry: string): Set<string> => {
    const reached = new Set<string>();
    const next = [join(repoRoot, entry)];
    for (let file = next.pop(); file !== undefined; file = next.pop()) {
      if (reached.has(file)) continue;
      reached.add(file);
      next.push(...(graph.get(file) ?? []));
    }
    return new Set([...reached].map((file) => relative(repoRoot, file)));
  };

  it.each([
    { app: 'native-api', own: 'libs/native/', others: ['libs/dashboard-api/', 'libs/mirror/', 'libs/edge/'] },
    { app: 'dashboard', own: 'libs/dashboard-api/', others: ['libs/native/', 'libs/mirror/', 'libs/edge/'] },
    {
      app: 'edge-gateway',
      own: 'libs/edge/',
      others: ['libs/native/', 'libs/dashboard-api/', 'libs/mirror/'],
    },
    {
      app: 'mirror-vendor-c',
      own: 'libs/mirror/',
      others: ['libs/native/', 'libs/dashboard-api/', 'libs/edge/'],
    },
  ])(
    "builds $app without another surface's code: its lib, and none of the others",
    ({ app, own, others }) => {
      const reached = [...reachedFrom(`apps/${app}/src/main.ts`)];
      expect(reached.some((file) => file.startsWith(own))).toBe(true);
      expect(reached.filter((file) => others.some((lib) => file.startsWith(lib)))).toEqual([]);
    },
  );

  it('has no import circle between files or projects', () => {
    const cycles = importCycles(graph).map((cycle) => cycle.map((file) => relative(repoRoot, file)));
    expect(cycles).toEqual([]);
  });
});
