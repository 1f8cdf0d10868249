import {
  ENV_DOCS,
  type EnvDoc,
  type EnvSchema,
  mirrorAppVendor,
  type VariableDefault,
  variableDefaults,
} from '@router/config';

/** The apps as the reference names them: each mirror app is one of "mirrors". */
const MIRRORS = 'mirrors';

/** Every variable read by some app, in the order first met, with each app's default for it. */
function readers(schemas: Readonly<Record<string, EnvSchema>>): Map<string, Map<string, VariableDefault>> {
  const byVariable = new Map<string, Map<string, VariableDefault>>();
  for (const [app, schema] of Object.entries(schemas)) {
    for (const [variable, unset] of Object.entries(variableDefaults(schema))) {
      const apps = byVariable.get(variable) ?? new Map<string, VariableDefault>();
      apps.set(app, unset);
      byVariable.set(variable, apps);
    }
  }
  return byVariable;
}

const matches = (doc: EnvDoc, variable: string): boolean =>
  doc.variables instanceof RegExp ? doc.variables.test(variable) : doc.variables.includes(variable);

function formatDefault(unset: VariableDefault): string {
  if (unset.required) return '—';
  const { value } = unset;
  if (value === undefined) return 'unset';
  if (typeof value === 'number' || typeof value === 'boolean') return `\`${String(value)}\``;
  if (typeof value === 'string') return value === '' ? 'empty' : `\`${value}\``;
  return `\`${JSON.stringify(value)}\``;
}

/** The apps that read a variable, mirror apps folded into "mirrors" when all of them read it. */
function appList(apps: readonly string[], allApps: readonly string[]): string {
  const mirrorApps = allApps.filter((app) => mirrorAppVendor(app) !== undefined);
  const readByAll = allApps.every((app) => apps.includes(app));
  if (readByAll) return 'all';
  const others = apps.filter((app) => mirrorAppVendor(app) === undefined);
  const mirrors = apps.filter((app) => mirrorAppVendor(app) !== undefined);
  const folded = mirrors.length > 0 && mirrors.length === mirrorApps.length ? [MIRRORS] : mirrors;
  return [...others, ...folded].join(', ');
}

/** One variable's default across the apps that read it: one value, or each value with its apps. */
function defaultAcross(readBy: ReadonlyMap<string, VariableDefault>): string {
  const groups = new Map<string, string[]>();
  const mirrorValues: string[] = [];
  for (const [app, unset] of readBy) {
    const shown = formatDefault(unset);
    if (mirrorAppVendor(app) !== undefined) mirrorValues.push(shown);
    else groups.set(shown, [...(groups.get(shown) ?? []), app]);
  }
  if (mirrorValues.length > 0) {
    const distinct = [...new Set(mirrorValues)];
    const shown = distinct.length === 1 ? distinct[0] : `${distinct[0]} … ${distinct[distinct.length - 1]}`;
    groups.set(shown, [...(groups.get(shown) ?? []), MIRRORS]);
  }
  if (groups.size === 1) return [...groups.keys()][0];
  return [...groups].map(([shown, apps]) => `${shown} (${apps.join(', ')})`).join('; ');
}

export interface EnvRow {
  readonly variables: readonly string[];
  readonly apps: string;
  readonly defaults: string;
  readonly meaning: string;
}

/**
 * The configuration reference, one row per entry of `docs`: its variables, the apps that read them and their
 * defaults, all read from `schemas` (each app's, by name); an entry no app reads has no row. Throws, naming
 * them, for a variable no entry documents (or two do) and a row whose variables different apps read.
 */
export function envReference(
  schemas: Readonly<Record<string, EnvSchema>>,
  docs: readonly EnvDoc[] = ENV_DOCS,
): EnvRow[] {
  const byVariable = readers(schemas);
  const allApps = Object.keys(schemas);
  const problems: string[] = [];
  for (const variable of byVariable.keys()) {
    const documenting = docs.filter((doc) => matches(doc, variable)).length;
    if (documenting !== 1) problems.push(`${variable} is documented by ${documenting} entries of ENV_DOCS`);
  }
  const rows = docs.flatMap((doc): EnvRow[] => {
    const variables = [...byVariable.keys()].filter((variable) => matches(doc, variable));
    if (variables.length === 0) return []; // e.g. the mirrors' rows while the registry has none
    if (doc.variables instanceof RegExp) variables.sort();
    const appsOf = (variable: string): string =>
      appList([...(byVariable.get(variable)?.keys() ?? [])], allApps);
    const apps = appsOf(variables[0]);
    const differing = variables.filter((variable) => appsOf(variable) !== apps);
    if (differing.length > 0) {
      problems.push(
        `${variables.join(', ')} share a row but not their apps (${differing.join(', ')} differ)`,
      );
    }
    const defaults =
      doc.default ??
      variables
        .map((variable) => defaultAcross(byVariable.get(variable) ?? new Map<string, VariableDefault>()))
        .join(', ');
    return [{ variables, apps, defaults, meaning: doc.meaning }];
  });
  if (problems.length > 0)
    throw new Error(`The configuration reference is not whole:\n  ${problems.join('\n  ')}`);
  return rows;
}

/** The reference as a Markdown table, aligned as Prettier aligns it. */
export function envReferenceTable(rows: readonly EnvRow[]): string[] {
  const cells = [
    ['variable', 'apps', 'default', 'meaning'],
    ...rows.map((row) => [
      row.variables.map((variable) => `\`${variable}\``).join(', '),
      row.apps,
      row.defaults,
      row.meaning.replace(/\|/g, '\\|'),
    ]),
  ];
  const widths = cells[0].map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  const line = (row: readonly string[]): string =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  return [line(cells[0]), line(widths.map((width) => '-'.repeat(width))), ...cells.slice(1).map(line)];
}

/**
 * The comment lines above an app's `env` in the chart's values.yaml: every variable the app reads with its
 * default (required ones marked), wrapped at `width` with `indent`.
 */
export function valuesEnvComment(schema: EnvSchema, indent: string, width = 110): string[] {
  const entries = Object.entries(variableDefaults(schema)).map(([variable, unset]) => {
    if (unset.required) return `${variable} (required)`;
    const { value } = unset;
    if (value === undefined) return variable;
    return `${variable}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
  });
  const lines = [
    `${indent}# Every variable the app reads (docs/operations.md, "Configuration"), with its default; the chart`,
    `${indent}# sets PORT, LOG_LEVEL, DRAIN_MS, the ConfigMap's and the secrets', the rest go in env:`,
  ];
  let current = `${indent}#`;
  for (const entry of entries) {
    const next = `${current} ${entry},`;
    if (next.length > width && current !== `${indent}#`) {
      lines.push(current);
      current = `${indent}# ${entry},`;
    } else current = next;
  }
  lines.push(current.replace(/,$/, ''));
  return lines;
}

/** The entries of `docs` that document no variable of `schemas` (left over from a removed one). */
export function unreadEnvDocs(
  schemas: Readonly<Record<string, EnvSchema>>,
  docs: readonly EnvDoc[] = ENV_DOCS,
): EnvDoc[] {
  const variables = [...readers(schemas).keys()];
  return docs.filter((doc) => !variables.some((variable) => matches(doc, variable)));
}
