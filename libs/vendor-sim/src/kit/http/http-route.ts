import { decodePathSegment } from '@router/vendors-core';
import type { HttpExchange } from './http-exchange';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface HttpRoute {
  readonly method: HttpMethod;
  /** Segments starting with `:` bind a parameter, e.g. `/v1/text-to-speech/:voice_id/stream`. */
  readonly path: string;
  handle(exchange: HttpExchange): void | Promise<void>;
}

export type RouteMatch<R extends { path: string }> =
  { kind: 'found'; route: R; params: Record<string, string> } | { kind: 'wrong-method' } | { kind: 'none' };

/** Matches `path` against route patterns segment by segment (literal segments win over parameters). */
export function matchRoute<R extends { path: string; method?: string }>(
  routes: readonly R[],
  method: string | undefined,
  path: string,
): RouteMatch<R> {
  const segments = splitPath(path);
  let best: { route: R; params: Record<string, string>; literals: number } | undefined;
  let pathMatched = false;
  for (const route of routes) {
    const pattern = splitPath(route.path);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    const ok = pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (part.startsWith(':')) {
        if (segment === '') return false;
        params[part.slice(1)] = decodePathSegment(segment);
        return true;
      }
      literals++;
      return part === segment;
    });
    if (!ok) continue;
    pathMatched = true;
    if (method !== undefined && route.method !== undefined && route.method !== method) continue;
    if (!best || literals > best.literals) best = { route, params, literals };
  }
  if (best) return { kind: 'found', route: best.route, params: best.params };
  return pathMatched ? { kind: 'wrong-method' } : { kind: 'none' };
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}
