import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

/** Each source file (absolute path) with the workspace files it imports or re-exports, types included. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** The folders of the workspace that hold its source. */
const SOURCE_DIRS = ['apps', 'libs', 'tools'];

/**
 * The import graph of the workspace at `root`. A package import is left out (it cannot import back); an
 * alias of `tsconfig.base.json`'s `paths` leads to the file it names.
 */
export function workspaceImportGraph(root: string): ImportGraph {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(join(root, dir)));
  const known = new Set(files);
  const aliases = aliasTargets(root);
  const resolveImport = (from: string, specifier: string): string | undefined => {
    if (specifier in aliases) return aliases[specifier];
    if (!specifier.startsWith('.')) return undefined;
    const base = resolve(dirname(from), specifier);
    return [`${base}.ts`, join(base, 'index.ts')].find((candidate) => known.has(candidate));
  };
  return new Map(
    files.map((file) => {
      // `true, true`: dynamic imports and `require` calls count too.
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles.map(({ fileName }) => resolveImport(file, fileName));
      return [file, [...new Set(targets.filter((target) => target !== undefined))]];
    }),
  );
}

/**
 * Every circle of the graph: each group of files that reach one another (a file that imports itself is one),
 * found once whatever its length (Tarjan's strongly connected components).
 */
export function importCycles(graph: ImportGraph): string[][] {
  /** Each visited file's visit number and the lowest visit number it reaches back to. */
  const marks = new Map<string, { order: number; lowest: number }>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    const mark = { order: marks.size, lowest: marks.size };
    marks.set(file, mark);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      const seen = marks.get(target);
      if (seen === undefined) {
        visit(target);
        mark.lowest = Math.min(mark.lowest, marks.get(target)?.lowest ?? mark.lowest);
      } else if (onStack.has(target)) {
        mark.lowest = Math.min(mark.lowest, seen.order);
      }
    }
    if (mark.lowest !== mark.order) return;
    const group = stack.splice(stack.lastIndexOf(file));
    group.forEach((member) => onStack.delete(member));
    if (group.length > 1 || graph.get(file)?.includes(file)) cycles.push(group);
  };
  for (const file of graph.keys()) if (!marks.has(file)) visit(file);
  return cycles;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function aliasTargets(root: string): Record<string, string> {
  const config = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, [string]> };
  };
  return Object.fromEntries(
    Object.entries(config.compilerOptions.paths).map(([alias, [target]]) => [alias, join(root, target)]),
  );
}
