import { isDeepStrictEqual } from 'node:util';

/** An OpenAPI document, or one surface's part of one, as JSON. */
export type OpenApiObject = Readonly<Record<string, unknown>>;

const OPERATIONS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * The router's one OpenAPI document from its surfaces' parts (each app's own `/openapi.json`), the first
 * part giving everything but paths, components and tags (the version, the info, the global security). Paths,
 * each kind of components and tags are the union of every part's. A later part's operations that state no
 * security of their own keep their part's global one (none where it states none), so the first part's global
 * security never reaches them. Two parts that describe one operation, or one component differently, are a
 * defect of the router's, refused rather than one silently winning.
 */
export function composeOpenApi(parts: readonly OpenApiObject[]): Record<string, unknown> {
  const [base] = parts;
  if (base === undefined) throw new Error('an OpenAPI document needs at least one part');
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, Record<string, unknown>> = {};
  const tags = new Map<string, unknown>();
  parts.forEach((part, index) => {
    const security = index === 0 ? undefined : (part['security'] ?? []);
    for (const [path, item] of Object.entries(record(part['paths']))) {
      const into = (paths[path] ??= {});
      for (const [name, value] of Object.entries(record(item))) {
        const operation =
          OPERATIONS.has(name) && security !== undefined && record(value)['security'] === undefined
            ? { ...record(value), security }
            : value;
        if (name in into && (OPERATIONS.has(name) || !isDeepStrictEqual(into[name], operation))) {
          throw new Error(`two surfaces describe ${name} of ${path} in the OpenAPI document`);
        }
        into[name] = operation;
      }
    }
    for (const [kind, entries] of Object.entries(record(part['components']))) {
      const into = (components[kind] ??= {});
      for (const [name, value] of Object.entries(record(entries))) {
        if (name in into && !isDeepStrictEqual(into[name], value)) {
          throw new Error(`two surfaces describe components.${kind}.${name} differently`);
        }
        into[name] = value;
      }
    }
    const listed = Array.isArray(part['tags']) ? (part['tags'] as unknown[]) : [];
    for (const tag of listed) {
      const name = record(tag)['name'];
      if (typeof name === 'string' && !tags.has(name)) tags.set(name, tag);
    }
  });
  return {
    ...base,
    paths,
    components,
    ...(tags.size > 0 || 'tags' in base ? { tags: [...tags.values()] } : {}),
  };
}

/**
 * The composed document, made from its parts when first asked and kept for `keepMs` (the apps make their part
 * once at start, so it changes only when one is redeployed); concurrent askers share one making, and a making
 * that failed is not kept.
 */
export class ComposedOpenApi {
  private made: { at: number; document: Promise<Buffer> } | undefined;

  constructor(
    private readonly readParts: () => Promise<OpenApiObject[]>,
    private readonly keepMs: number,
    private readonly now: () => number,
  ) {}

  document(): Promise<Buffer> {
    const at = this.now();
    if (this.made && at - this.made.at < this.keepMs) return this.made.document;
    const document = this.readParts().then((parts) => Buffer.from(JSON.stringify(composeOpenApi(parts))));
    const made = { at, document };
    this.made = made;
    document.catch(() => {
      if (this.made === made) this.made = undefined;
    });
    return document;
  }
}
