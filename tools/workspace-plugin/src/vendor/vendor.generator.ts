import { join } from 'node:path';
import { formatFiles, generateFiles, type Tree, updateJson } from '@nx/devkit';

export interface VendorGeneratorOptions {
  /** The token's letter: the vendor is `vendor_<letter>`. */
  readonly letter: string;
}

/** Every spelling of one vendor the workspace uses, from its letter. */
export interface VendorNames {
  readonly letter: string;
  /** `vendor_x`: the token, in code, docs and the API. */
  readonly token: string;
  /** `vendor-x`: the folder, the Nx project and the import path's tail. */
  readonly folder: string;
  /** `vendorX`: the definition; `vendorXEntry`, `vendorXAccess`… */
  readonly camel: string;
  /** `VendorX`: the adapter's class. */
  readonly pascal: string;
  /** `VENDOR_X`: the key and the limits. */
  readonly constant: string;
  /** `Vendor X`: the catalogue's name. */
  readonly name: string;
}

export function vendorNames(letter: string): VendorNames {
  if (!/^[a-z]$/.test(letter)) throw new Error(`letter must be one lower-case letter a-z, not "${letter}"`);
  const upper = letter.toUpperCase();
  return {
    letter,
    token: `vendor_${letter}`,
    folder: `vendor-${letter}`,
    camel: `vendor${upper}`,
    pascal: `Vendor${upper}`,
    constant: `VENDOR_${upper}`,
    name: `Vendor ${upper}`,
  };
}

/** The files the generator edits, each a hand-written list it adds one row to (docs/adding-a-vendor.md). */
export const EDITED_FILES = {
  letters: 'libs/config/src/common-env.ts',
  registry: 'libs/vendors/registry/src/vendors.registry.ts',
  client: 'libs/client/src/api.types.ts',
  specFacts: 'libs/spec-facts/src/spec-facts.ts',
  speechBody: 'libs/native/src/speech/speech-body.spec.ts',
  vendorSettings: 'libs/native/src/speech/vendor-settings.spec.ts',
  simLimits: 'libs/vendor-sim/src/sim-text-limits.spec.ts',
  e2eSettings: 'libs/testing/src/vendor-settings.ts',
  doors: 'libs/vendors/registry/src/mirror-access.spec.ts',
  gatewayClients: 'libs/edge/src/mirror-gateway.int-spec.ts',
} as const;

/**
 * `nx g @router/workspace-plugin:vendor <letter>`: the mechanical steps of docs/adding-a-vendor.md in one command.
 * Writes the vendor's folder (project, README, a placeholder definition, adapter, wire, key, access and registry
 * entry that compile), its path alias, its letter in libs/config's `VENDOR_TOKENS`, its registry entry, its
 * token in the published client, and its rows in the tables that restate the spec. Every row holds the
 * placeholders of the folder, so the workspace compiles; the spec's real values, the simulator and the mirror
 * are the checklist's hand work, which the command lists when it ends.
 */
export async function vendorGenerator(tree: Tree, options: VendorGeneratorOptions): Promise<() => void> {
  const n = vendorNames(options.letter);
  const root = `libs/vendors/${n.folder}`;
  if (tree.exists(root)) throw new Error(`${root} exists already: ${n.token} is a vendor`);

  edit(tree, EDITED_FILES.letters, (source) => addLetter(source, n.letter));
  generateFiles(tree, join(__dirname, 'files'), root, { ...n, tmpl: '' });
  updateJson<{ compilerOptions: { paths: Record<string, string[]> } }>(tree, 'tsconfig.base.json', (json) => {
    json.compilerOptions.paths = withPath(json.compilerOptions.paths, `@router/${n.folder}`, [
      `${root}/src/index.ts`,
    ]);
    return json;
  });
  edit(tree, EDITED_FILES.registry, (source) =>
    afterLast(
      afterLast(
        source,
        /^import \{ vendor[A-Z]Entry \} from '@router\/vendor-[a-z]';$/m,
        `import { ${n.camel}Entry } from '@router/${n.folder}';`,
      ),
      /^ {2}vendor_[a-z]: vendor[A-Z]Entry,$/m,
      `  ${n.token}: ${n.camel}Entry,`,
    ),
  );
  edit(tree, EDITED_FILES.client, (source) => inList(source, 'PROVIDER_IDS', `  '${n.token}',`));
  edit(tree, EDITED_FILES.specFacts, (source) =>
    inList(
      inList(source, 'SPEC_VENDOR_TOKENS', `  '${n.token}',`),
      'SPEC_CATALOGUE',
      [
        `  // ${n.token}: the generator's placeholders; the spec's row replaces them.`,
        `  ${n.token}: {`,
        `    formats: ['pcm'],`,
        `    sample_rates: [24000],`,
        `    speech_sample_rates: [24000],`,
        `    speed: { min: 0.5, max: 2.0 },`,
        `  },`,
      ].join('\n'),
    ),
  );
  edit(tree, EDITED_FILES.speechBody, (source) =>
    inList(
      source,
      'MINIMAL',
      `  ${n.token}: { model: '${n.token}/${n.letter}_model_1', input: 'Hello.', voice: 'v1', response_format: 'pcm' },`,
    ),
  );
  edit(tree, EDITED_FILES.vendorSettings, (source) =>
    inList(
      inBlock(
        source,
        /^ {2}const RULES\b.*= \[$/m,
        /^ {2}\];$/m,
        `    ['${n.token}', 'none', null], // the generator's placeholder: the spec's language rule replaces it`,
      ),
      'MINIMAL',
      `  ${n.token}: { model: '${n.letter}_model_1', voice: 'v1', format: 'pcm', options: {} },`,
    ),
  );
  edit(tree, EDITED_FILES.simLimits, (source) =>
    inList(
      afterLast(
        source,
        /^import \{ [A-Z_]+ \} from '@router\/vendor-[a-z]';$/m,
        `import { ${n.constant}_TEXT_LIMIT } from '@router/${n.folder}';`,
      ),
      'SIMULATED_LIMITS',
      `  ${n.token}: ${n.constant}_TEXT_LIMIT,`,
    ),
  );
  edit(tree, EDITED_FILES.e2eSettings, (source) =>
    inBlock(
      source,
      /^ {2}return \{$/m,
      /^ {2}\};$/m,
      `    ${n.token}: async () => ({ model: '${n.token}/${n.letter}_model_1', voice: 'v1', response_format: 'pcm' }),`,
    ),
  );
  edit(tree, EDITED_FILES.doors, (source) =>
    inList(
      source,
      'DOORS',
      [
        `  // ${n.token}: the generator's placeholder access; the spec's Mirror refusals table replaces it.`,
        `  ${n.token}: {`,
        `    key: ['authorization: Bearer <key>'],`,
        `    socket: 'handshake',`,
        `    keyRefusal: { status: 401, headers: JSON_TYPE, body: { error: { message: MESSAGE } } },`,
        `    outOfCredit: { status: 402, headers: JSON_TYPE, body: { error: { message: MESSAGE } } },`,
        `    notFound: { status: 404, headers: JSON_TYPE, body: { error: { message: 'Not Found' } } },`,
        `  },`,
      ].join('\n'),
    ),
  );
  edit(tree, EDITED_FILES.gatewayClients, (source) =>
    inBlock(
      source,
      /^const CLIENTS: Record<[\s\S]*?^> = \{$/m,
      /^\};$/m,
      `  ${n.token}: { path: '/v1/speech', key: (k) => ({ headers: { authorization: \`Bearer \${k}\` } }) },`,
    ),
  );
  await formatFiles(tree);
  return () => {
    process.stdout.write(
      [
        `${n.token}: written. Left by hand (docs/adding-a-vendor.md):`,
        `- the spec's facts in ${root}/src/${n.folder}.definition.ts and libs/spec-facts (SPEC_CATALOGUE, SPEC_OPTIONS);`,
        "- npm run client:gen (the published client's vendor types);",
        `- the simulator, libs/vendor-sim/src/${n.folder}/, and its row in SIM_VENDORS (tsc names it until then);`,
        `- libs/vendor-adapter-tests/src/${n.folder}.adapter.int-spec.ts;`,
        `- the mirror (wire/${n.folder}.mirror.ts, wire/${n.folder}.drop-in.ts, its DOORS row), then npm run deploy:gen.`,
        '',
      ].join('\n'),
    );
  };
}

function edit(tree: Tree, path: string, change: (source: string) => string): void {
  const source = tree.read(path, 'utf-8');
  if (source === null) throw new Error(`${path} is missing`);
  tree.write(path, change(source));
}

/** `libs/config`'s letter list with `letter` appended (a new vendor comes last: the others keep their ports). */
export function addLetter(source: string, letter: string): string {
  const match = /export const VENDOR_TOKENS = \[([^\]]*)\] as const;/.exec(source);
  if (!match) throw new Error('VENDOR_TOKENS is not where the generator looks for it');
  const letters = [...match[1].matchAll(/'([a-z])'/g)].map((m) => m[1]);
  if (letters.includes(letter)) throw new Error(`vendor_${letter} is in VENDOR_TOKENS already`);
  const list = [...letters, letter].map((l) => `'${l}'`).join(', ');
  return source.replace(match[0], `export const VENDOR_TOKENS = [${list}] as const;`);
}

/** `line` on a line of its own after the last line `pattern` matches (with the m flag). */
export function afterLast(source: string, pattern: RegExp, line: string): string {
  const all = [...source.matchAll(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))];
  const last = all.at(-1);
  if (last?.index === undefined) throw new Error(`nothing matches ${String(pattern)}: place the row by hand`);
  const end = last.index + last[0].length;
  return `${source.slice(0, end)}\n${line}${source.slice(end)}`;
}

/** `row` as the last row of the list or object literal `const <name>… = [` or `{`, before its close. */
export function inList(source: string, name: string, row: string): string {
  const start = new RegExp(`^(?:export )?const ${name}\\b[^=]*= ([[{])$`, 'm');
  const opener = start.exec(source)?.[1];
  const close = opener === '[' ? /^\](?: as const)?;$/m : /^\}(?: as const)?;$/m;
  return inBlock(source, start, close, row);
}

/** `row` on a line of its own before the first line matching `close` after the line matching `start`. */
export function inBlock(source: string, start: RegExp, close: RegExp, row: string): string {
  const begin = start.exec(source);
  if (begin?.index === undefined) throw new Error(`nothing matches ${String(start)}: place the row by hand`);
  const from = begin.index + begin[0].length;
  const end = close.exec(source.slice(from));
  if (end?.index === undefined)
    throw new Error(`no ${String(close)} after ${String(start)}: place the row by hand`);
  const at = from + end.index;
  return `${source.slice(0, at)}${row}\n${source.slice(at)}`;
}

/** `paths` with `alias` placed after the last alias sharing its prefix up to the letter (so vendors stay together). */
function withPath(
  paths: Record<string, string[]>,
  alias: string,
  target: string[],
): Record<string, string[]> {
  if (paths[alias]) throw new Error(`tsconfig.base.json has ${alias} already`);
  const entries = Object.entries(paths);
  const family = alias.slice(0, -1);
  const last = entries
    .map(([key]) => key)
    .findLastIndex((key) => key.startsWith(family) && key.length === alias.length);
  entries.splice(last === -1 ? entries.length : last + 1, 0, [alias, target]);
  return Object.fromEntries(entries);
}

export default vendorGenerator;
