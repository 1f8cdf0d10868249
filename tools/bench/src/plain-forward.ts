import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Pool } from 'undici';

/**
 * What the benchmark's reference hops do with a request, and no more: forward it over a keep-alive pool with
 * its headers (less host and connection), body piped, and pipe the answer back. The bare proxy and the naive
 * chain's gateway both use it, so the two references forward alike.
 */
export function plainForward(pool: Pool): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) =>
    void (async () => {
      try {
        const headers: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (value !== undefined && name !== 'host' && name !== 'connection') headers[name] = value;
        }
        const answer = await pool.request({
          method: req.method === 'GET' ? 'GET' : 'POST',
          path: req.url ?? '/',
          headers,
          body: req.method === 'GET' ? null : req,
        });
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && name !== 'connection' && name !== 'transfer-encoding') out[name] = value;
        }
        res.writeHead(answer.statusCode, out);
        await pipeline(answer.body, res);
      } catch {
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      }
    })();
}
