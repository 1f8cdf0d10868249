import type { DropInKeying, DropInWire, RequestLabels } from './drop-in.types';
import { isPlainObject } from './settings.values';

/** The labels of a request that names no model or voice the router can read (a voice list, a body refused). */
export const NO_LABELS: RequestLabels = Object.freeze({ model: '', voice: '' });

/**
 * A label's longest: an id, never content. A client may put anything in a field its vendor would refuse; the
 * log keeps no more of it than a name needs.
 */
export const LABEL_MAX_CHARS = 200;

/**
 * The model and voice of a drop-in request as its request log row names them: the wire's `labels` of its
 * canonical form (the vendor's defaults filled), each cut to `LABEL_MAX_CHARS`; `NO_LABELS` for a request the
 * wire does not cache, whose settings it does not read.
 */
export function requestLabels(wire: Pick<DropInWire, 'labels'>, keying: DropInKeying): RequestLabels {
  if (!keying.cacheable) return NO_LABELS;
  const { model, voice } = wire.labels(keying.canonical);
  return { model: bounded(model), voice: bounded(voice) };
}

function bounded(label: string): string {
  return label.length <= LABEL_MAX_CHARS ? label : [...label].slice(0, LABEL_MAX_CHARS).join('');
}

/** The value at `path` (object fields) under `value`; undefined where a field is missing. */
function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const name of path) {
    if (!isPlainObject(at) || !Object.hasOwn(at, name)) return undefined;
    at = at[name];
  }
  return at;
}

/** The string at `path` (object fields) under `value`, '' where there is none or it is not a string. */
export function labelAt(value: unknown, ...path: readonly string[]): string {
  const at = valueAt(value, path);
  return typeof at === 'string' ? at : '';
}

/** The items of the array at `path` (object fields) under `value`, none where it is not an array. */
export function itemsAt(value: unknown, ...path: readonly string[]): readonly unknown[] {
  const at = valueAt(value, path);
  return Array.isArray(at) ? (at as unknown[]) : [];
}

/** A query parameter's value in a canonical query, '' where it is left out or sent more than once. */
export function queryLabel(query: Readonly<Record<string, readonly string[]>>, name: string): string {
  const values = Object.hasOwn(query, name) ? query[name] : undefined;
  return values?.length === 1 ? (values[0] ?? '') : '';
}

/** Several labels as one (a dialogue's voices): each once, in the order first named, the empty ones left out. */
export function joinedLabels(labels: readonly string[]): string {
  return [...new Set(labels.filter((label) => label !== ''))].join(', ');
}
