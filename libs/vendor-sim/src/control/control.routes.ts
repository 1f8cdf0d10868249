import { faultProblem, type FaultSpec } from '../kit/faults';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { pacingProblem } from '../kit/pacing';
import type { SimState } from '../kit/sim-state';

/** Every control path starts here; no vendor uses it. */
export const CONTROL_PREFIX = '/__sim';

function objectBody(exchange: HttpExchange): Record<string, unknown> | undefined {
  const body = exchange.json();
  if (typeof body === 'object' && body !== null && !Array.isArray(body))
    return body as Record<string, unknown>;
  exchange.sendJson(400, { error: 'body must be a JSON object' });
  return undefined;
}

function optional(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) ?? undefined;
}

/**
 * The test-control API (paths relative to `/__sim`): call log and counts, read counts, pacing, socket idle
 * timeouts, faults, reset. A vendor's own controls are under `/__sim/<vendor token>`. `SimControl` is its typed client.
 */
export function controlRoutes(state: SimState, vendors: readonly string[]): HttpRoute[] {
  const knownVendor = (exchange: HttpExchange, vendor: unknown, allowAll: boolean): vendor is string => {
    if (typeof vendor === 'string' && (vendors.includes(vendor) || (allowAll && vendor === 'all')))
      return true;
    exchange.sendJson(400, {
      error: `vendor must be one of ${[...vendors, ...(allowAll ? ['all'] : [])].join(', ')}`,
    });
    return false;
  };
  return [
    {
      method: 'GET',
      path: '/vendors',
      handle: (exchange) => exchange.sendJson(200, { vendors }),
    },
    {
      method: 'GET',
      path: '/calls',
      handle: (exchange) => {
        const q = exchange.query;
        exchange.sendJson(200, {
          calls: state.calls.list({
            vendor: optional(q, 'vendor'),
            keyId: optional(q, 'key_id'),
            endpoint: optional(q, 'endpoint'),
          }),
        });
      },
    },
    {
      method: 'GET',
      path: '/calls/counts',
      handle: (exchange) => exchange.sendJson(200, { counts: state.calls.totals() }),
    },
    {
      method: 'GET',
      path: '/reads',
      handle: (exchange) => exchange.sendJson(200, { reads: state.reads.totals() }),
    },
    {
      method: 'GET',
      path: '/pacing',
      handle: (exchange) => exchange.sendJson(200, { pacing: state.pacingTable() }),
    },
    {
      method: 'PUT',
      path: '/pacing',
      handle: (exchange) => {
        const body = objectBody(exchange);
        if (!body) return;
        const { vendor, ...patch } = body;
        if (!knownVendor(exchange, vendor, true)) return;
        const problem = pacingProblem(patch);
        if (problem) return exchange.sendJson(400, { error: problem });
        state.setPacing(vendor, patch);
        exchange.sendJson(200, { pacing: state.pacingTable() });
      },
    },
    {
      method: 'PUT',
      path: '/timeouts',
      handle: (exchange) => {
        const body = objectBody(exchange);
        if (!body) return;
        if (!knownVendor(exchange, body['vendor'], true)) return;
        const idleMs = body['idleMs'];
        if (idleMs !== null && !(typeof idleMs === 'number' && Number.isFinite(idleMs) && idleMs > 0)) {
          return exchange.sendJson(400, { error: 'idleMs must be a number > 0 or null' });
        }
        state.setIdleTimeout(body['vendor'], idleMs);
        exchange.sendJson(200, {});
      },
    },
    {
      method: 'GET',
      path: '/faults',
      handle: (exchange) => exchange.sendJson(200, { faults: state.faults.list() }),
    },
    {
      method: 'POST',
      path: '/faults',
      handle: (exchange) => {
        const body = objectBody(exchange);
        if (!body) return;
        const problem = faultProblem(body);
        if (problem) return exchange.sendJson(400, { error: problem });
        if (!knownVendor(exchange, body['vendor'], false)) return;
        exchange.sendJson(201, { fault: state.faults.add(body as unknown as FaultSpec) });
      },
    },
    {
      method: 'DELETE',
      path: '/faults',
      handle: (exchange) => {
        state.faults.clear();
        exchange.send(204, 'application/json', '');
      },
    },
    {
      method: 'DELETE',
      path: '/faults/:id',
      handle: (exchange) => {
        const removed = state.faults.remove(exchange.params['id'] ?? '');
        if (removed) exchange.send(204, 'application/json', '');
        else exchange.sendJson(404, { error: 'no such fault' });
      },
    },
    {
      method: 'POST',
      path: '/reset',
      handle: (exchange) => {
        state.reset();
        exchange.send(204, 'application/json', '');
      },
    },
  ];
}
