// The vendor generator on a virtual tree seeded with the repository's own files: what it writes and where, and
// what it refuses. (`nx g @router/workspace-plugin:vendor <letter>` runs the same function on the real tree.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tree } from '@nx/devkit';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { afterLast, EDITED_FILES, inBlock, inList, vendorGenerator, vendorNames } from './vendor.generator';

const REPO = join(__dirname, '..', '..', '..', '..');
const SEEDED = [...Object.values(EDITED_FILES), 'tsconfig.base.json', '.prettierrc'];
const original = (path: string): string => readFileSync(join(REPO, path), 'utf8');

function seededTree(): Tree {
  const tree = createTreeWithEmptyWorkspace();
  for (const path of SEEDED) tree.write(path, original(path));
  return tree;
}

const read = (tree: Tree, path: string): string => {
  const text = tree.read(path, 'utf-8');
  if (text === null) throw new Error(`the tree has no ${path}`);
  return text;
};

/** The lines `after` has that `before` lacks, when `before`'s lines all stand in `after` in their order. */
function addedLines(before: string, after: string): string[] {
  const kept = before.split('\n');
  const added: string[] = [];
  let next = 0;
  for (const line of after.split('\n')) {
    if (next < kept.length && line === kept[next]) next += 1;
    else added.push(line);
  }
  if (next !== kept.length) throw new Error(`a line of the original is gone: ${kept[next]}`);
  return added;
}

describe('vendorGenerator', () => {
  let tree: Tree;
  beforeAll(async () => {
    tree = seededTree();
    await vendorGenerator(tree, { letter: 'k' });
  });

  it("writes the vendor's folder: its project, README and a definition, adapter, wire and entry", () => {
    const root = 'libs/vendors/vendor-k';
    expect(JSON.parse(read(tree, `${root}/project.json`))).toMatchObject({
      name: 'vendor-k',
      sourceRoot: `${root}/src`,
      tags: ['type:vendor', 'scope:shared'],
    });
    const files = tree
      .children(`${root}/src`)
      .concat(tree.children(`${root}/src/wire`).map((f) => `wire/${f}`));
    expect(files.sort()).toEqual([
      'index.ts',
      'vendor-k.adapter.ts',
      'vendor-k.definition.ts',
      'vendor-k.entry.ts',
      'wire',
      'wire/vendor-k.access.ts',
      'wire/vendor-k.errors.ts',
      'wire/vendor-k.key.ts',
      'wire/vendor-k.requests.ts',
    ]);
    expect(read(tree, `${root}/src/index.ts`)).toContain("export { vendorKEntry } from './vendor-k.entry';");
    expect(read(tree, `${root}/src/vendor-k.definition.ts`)).toContain("id: 'vendor_k',");
    expect(read(tree, `${root}/src/vendor-k.adapter.ts`)).toContain('export class VendorKAdapter');
    expect(read(tree, `${root}/README.md`)).toMatch(/^# vendor-k \(`@router\/vendor-k`\)/);
    for (const path of [
      `${root}/README.md`,
      ...files.filter((f) => f.endsWith('.ts')).map((f) => `${root}/src/${f}`),
    ]) {
      expect(read(tree, path)).not.toMatch(/<%|%>|vendor_j|vendorJ|VENDOR_J/);
    }
  });

  it("appends the letter to libs/config's VENDOR_TOKENS, so the other vendors keep their ports", () => {
    const letters = (list: string) => `export const VENDOR_TOKENS = [${list}] as const;`;
    const ten = "'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'";
    expect(read(tree, EDITED_FILES.letters)).toBe(
      original(EDITED_FILES.letters).replace(letters(ten), letters(`${ten}, 'k'`)),
    );
    expect(read(tree, EDITED_FILES.letters)).not.toBe(original(EDITED_FILES.letters));
  });

  it('adds the path alias after the last vendor', () => {
    const paths = Object.keys(JSON.parse(read(tree, 'tsconfig.base.json')).compilerOptions.paths);
    expect(paths[paths.indexOf('@router/vendor-j') + 1]).toBe('@router/vendor-k');
    expect(JSON.parse(read(tree, 'tsconfig.base.json')).compilerOptions.paths['@router/vendor-k']).toEqual([
      'libs/vendors/vendor-k/src/index.ts',
    ]);
  });

  it('files the entry in the registry, after vendor_j', () => {
    const registry = read(tree, EDITED_FILES.registry);
    expect(addedLines(original(EDITED_FILES.registry), registry)).toEqual([
      "import { vendorKEntry } from '@router/vendor-k';",
      '  vendor_k: vendorKEntry,',
    ]);
    expect(registry).toContain('  vendor_j: vendorJEntry,\n  vendor_k: vendorKEntry,\n});');
  });

  it.each([
    [EDITED_FILES.client, ["  'vendor_k',"]],
    [
      EDITED_FILES.simLimits,
      ["import { VENDOR_K_TEXT_LIMIT } from '@router/vendor-k';", '  vendor_k: VENDOR_K_TEXT_LIMIT,'],
    ],
  ])('adds the rows of %s', (path, rows) => {
    expect(addedLines(original(path), read(tree, path))).toEqual(rows);
  });

  it.each([
    EDITED_FILES.specFacts,
    EDITED_FILES.speechBody,
    EDITED_FILES.vendorSettings,
    EDITED_FILES.e2eSettings,
    EDITED_FILES.doors,
    EDITED_FILES.gatewayClients,
  ])("adds vendor_k's rows to %s and changes nothing else", (path) => {
    const added = addedLines(original(path), read(tree, path));
    expect(added.length).toBeGreaterThan(0);
    expect(added.find((line) => line.includes('vendor_k'))).toBeDefined();
  });

  it('refuses a letter some vendor has, naming it, and writes nothing', async () => {
    const fresh = seededTree();
    await expect(vendorGenerator(fresh, { letter: 'c' })).rejects.toThrow(
      /vendor_c is in VENDOR_TOKENS already/,
    );
    expect(read(fresh, EDITED_FILES.letters)).toBe(original(EDITED_FILES.letters));
    await expect(vendorGenerator(tree, { letter: 'k' })).rejects.toThrow(
      /libs\/vendors\/vendor-k exists already/,
    );
  });

  it.each(['K', 'kk', '', '1', 'é'])('refuses the letter %j', async (letter) => {
    await expect(vendorGenerator(seededTree(), { letter })).rejects.toThrow(/one lower-case letter a-z/);
  });

  it('refuses a file whose list is not where it looks, naming the list', async () => {
    const moved = seededTree();
    moved.write(
      EDITED_FILES.client,
      read(moved, EDITED_FILES.client).replace('PROVIDER_IDS = [', 'PROVIDER_IDS = Object.freeze(['),
    );
    await expect(vendorGenerator(moved, { letter: 'k' })).rejects.toThrow(/PROVIDER_IDS/);
  });
});

describe('vendorNames', () => {
  it('spells the vendor every way the workspace does', () => {
    expect(vendorNames('m')).toEqual({
      letter: 'm',
      token: 'vendor_m',
      folder: 'vendor-m',
      camel: 'vendorM',
      pascal: 'VendorM',
      constant: 'VENDOR_M',
      name: 'Vendor M',
    });
  });
});

describe('the row placers', () => {
  const source = ['const A = [', "  'x',", '] as const;', 'const B = {', '  b: 1,', '};', ''].join('\n');

  it('put a row last in a list or an object', () => {
    expect(inList(source, 'A', "  'y',")).toContain("  'x',\n  'y',\n] as const;");
    expect(inList(source, 'B', '  c: 2,')).toContain('  b: 1,\n  c: 2,\n};');
  });

  it('put a line after the last match', () => {
    expect(afterLast(source, /^ {2}.*,$/m, '  z,')).toContain('  b: 1,\n  z,\n};');
  });

  it('refuse a list or a line they cannot find, saying so', () => {
    expect(() => inList(source, 'C', 'row')).toThrow(/place the row by hand/);
    expect(() => afterLast(source, /^nothing$/m, 'row')).toThrow(/place the row by hand/);
    expect(() => inBlock(source, /^const A = \[$/m, /^never$/m, 'row')).toThrow(/place the row by hand/);
  });
});
