import { join } from 'node:path';
import ts from 'typescript';
import type { K8sObject } from './helm';

const REPO_ROOT = join(__dirname, '..', '..', '..');
/** The package whose models hold each API group's types (as scripts/validate-k8s.mjs validates them). */
const PACKAGES: Readonly<Record<string, string>> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
  'gateway.networking.k8s.io': '@kubernetes-models/gateway-api',
};

function modulePath(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  return `${PACKAGES[group] ?? 'kubernetes-models'}/${apiVersion}/${kind}`;
}

/**
 * Fields of rendered objects that their Kubernetes API type does not have (what `kubectl apply
 * --validate=strict` refuses, and what a JSON-schema check of the API's OpenAPI lets through): each object is
 * walked against the TypeScript interface the pinned `kubernetes-models` packages generate from the API's
 * schemas, read with the TypeScript compiler. A map of free keys (labels, annotations, a ConfigMap's data) takes
 * any key. Answers `<kind>/<name>: <path>` for each unknown field, and for an object of no known type.
 */
export function unknownFields(objects: readonly K8sObject[]): string[] {
  const kinds = [...new Set(objects.map((object) => `${object.apiVersion} ${object.kind}`))];
  const source = kinds
    .map((entry, i) => {
      const [apiVersion, kind] = entry.split(' ');
      return `import type { I${kind} as T${i} } from '${modulePath(apiVersion, kind)}';\nexport declare const v${i}: T${i};`;
    })
    .join('\n');
  const file = join(REPO_ROOT, 'tools', 'deploy-check', '__rendered-kinds.ts');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.fileExists = (name) => name === file || fileExists(name);
  host.getSourceFile = (name, version, onError) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, onError);
  const program = ts.createProgram([file], options, host);
  const checker = program.getTypeChecker();
  const unresolved = ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (unresolved.length > 0) throw new Error(`Kubernetes model types not found: ${unresolved.join('; ')}`);
  const module = checker.getSymbolAtLocation(program.getSourceFile(file) as ts.SourceFile);
  const exported = new Map(
    checker
      .getExportsOfModule(module as ts.Symbol)
      .map((symbol) => [symbol.name, checker.getTypeOfSymbol(symbol)]),
  );

  const problems: string[] = [];
  for (const object of objects) {
    const type = exported.get(`v${kinds.indexOf(`${object.apiVersion} ${object.kind}`)}`);
    const at = `${object.kind}/${object.metadata.name}`;
    if (!type) problems.push(`${at}: no type`);
    else walk(checker, object, type, (path) => problems.push(`${at}: ${path}`), '');
  }
  return problems;
}

/** The object types a (possibly nullable, possibly union) type may be. */
function objectTypes(checker: ts.TypeChecker, type: ts.Type): ts.Type[] {
  const nonNull = checker.getNonNullableType(type);
  const members = nonNull.isUnion() ? nonNull.types : [nonNull];
  return members.filter((member) => (member.flags & ts.TypeFlags.Object) !== 0);
}

function walk(
  checker: ts.TypeChecker,
  value: unknown,
  type: ts.Type,
  report: (path: string) => void,
  path: string,
): void {
  if (value === null || typeof value !== 'object') return;
  const candidates = objectTypes(checker, type);
  if (candidates.length === 0) return; // `any`, `unknown` or a primitive the schema check covers
  if (Array.isArray(value)) {
    const array = candidates.find((candidate) => checker.isArrayType(candidate));
    const element = array && checker.getTypeArguments(array as ts.TypeReference)[0];
    if (element) value.forEach((item, i) => walk(checker, item, element, report, `${path}[${i}]`));
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [key, child] of Object.entries(record)) {
    const here = path ? `${path}.${key}` : key;
    const declared = candidates.map((candidate) => candidate.getProperty(key)).find(Boolean);
    if (declared) {
      walk(checker, child, checker.getTypeOfSymbol(declared), report, here);
      continue;
    }
    const indexed = candidates.map((candidate) => candidate.getStringIndexType()).find(Boolean);
    if (indexed) walk(checker, child, indexed, report, here);
    else report(here);
  }
}
