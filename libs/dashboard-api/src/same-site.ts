import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { originIsRequestHost } from '@router/auth';
import { RouterError } from '@router/contracts';

/** Methods that change nothing: the only ones another site's page may cause. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** `application/json`, with parameters (`; charset=utf-8`) or none. */
const JSON_TYPE = /^application\/json\s*(;|$)/i;
/** What `Sec-Fetch-Site` says of a request the dashboard's own pages (or the user, typing) made. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/**
 * Why a request to `/api/...` that changes something is refused, or undefined when it is not: it must come from
 * the dashboard's own pages (a browser's `Sec-Fetch-Site` and `Origin` must not name another site) and carry
 * JSON, or no body. A page of another site can post a form (or text) with the member's cookie, and could sign
 * the browser in to an org of its choosing (sign-in takes no CSRF token: there is no session yet); it cannot
 * send JSON without the browser asking this origin first, which it never allows.
 */
export function crossSiteProblem(method: string, headers: IncomingHttpHeaders): RouterError | undefined {
  if (SAFE_METHODS.has(method)) return undefined;
  const site = headers['sec-fetch-site'];
  if (site !== undefined && !OWN_FETCH_SITES.has(String(site))) {
    return new RouterError(
      'forbidden',
      `Refused: the request came from another site (Sec-Fetch-Site: ${site}).`,
    );
  }
  const origin = headers.origin;
  if (origin !== undefined && !originIsRequestHost(origin, headers)) {
    return new RouterError('forbidden', `Refused: the request came from another site (Origin: ${origin}).`);
  }
  const type = headers['content-type'];
  const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  if ((type !== undefined || hasBody) && !JSON_TYPE.test(type ?? '')) {
    return RouterError.badRequest('The request body must be JSON (Content-Type: application/json).', 415);
  }
  return undefined;
}

/**
 * Every `/api/...` answer: never stored by a browser or a proxy (some carry a secret: a new API key, the CSRF
 * token), never sniffed as another type; and a change from another site, or not in JSON, refused first.
 */
export function apiRequestRules(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-content-type-options', 'nosniff');
  const problem = crossSiteProblem(req.method, req.headers);
  if (problem) throw problem; // Nest's middleware proxy hands it to the envelope filter
  next();
}
