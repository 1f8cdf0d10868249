import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { Counter, type Registry } from 'prom-client';
import { WebSocketServer } from 'ws';
import type { Health, Logger } from '@router/observability';
import { CONTROL_PREFIX, controlRoutes } from './control/control.routes';
import { DEFAULT_MS_PER_CHAR } from './kit/audio/take';
import { HttpExchange } from './kit/http/http-exchange';
import { matchRoute, type HttpRoute } from './kit/http/http-route';
import { writeUpgradeRefusal, type UpgradeContext } from './kit/http/socket-route';
import { DEFAULT_PACING } from './kit/pacing';
import { SimState, type SimObserver } from './kit/sim-state';
import type { SimVendorModule } from './kit/sim-vendor';
import { simulatedVendors } from './sim-vendors.registry';
import type { VendorSimConfig } from './vendor-sim.options';

export type { VendorSimConfig } from './vendor-sim.options';

export interface RunningVendorSim {
  port: number;
  /** `http://<host>:<port>`; a vendor's base URL is this plus `/<vendor token>`. */
  url: string;
  /** The live state behind the control API, for in-process tests. */
  state: SimState;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The simulated vendors on one port: each vendor under `/<vendor token>` (HTTP and WebSocket), the test
 * control API under `/__sim`, and `/healthz`, `/readyz`, `/metrics`. Plain node:http and `ws`, so every
 * wire detail (status lines, chunking, upgrade refusals, sub-protocol echo, close codes) is the vendor's.
 */
export async function startVendorSim(
  config: VendorSimConfig,
  deps: { logger: Logger; health: Health },
): Promise<RunningVendorSim> {
  const state = new SimState(
    { pacing: { ...DEFAULT_PACING, ...config.pacing }, msPerChar: config.msPerChar ?? DEFAULT_MS_PER_CHAR },
    simMetrics(deps.health.metrics),
  );
  const kit = { state, logger: deps.logger };
  const modules = new Map<string, SimVendorModule>(simulatedVendors(kit).map((m) => [m.vendor, m]));
  const control = controlRoutes(state, [...modules.keys()]);
  const chosenProtocol = new WeakMap<IncomingMessage, string>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_BODY_BYTES,
    handleProtocols: (_offered, req) => chosenProtocol.get(req) ?? false,
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://sim');
    const path = url.pathname;
    if (req.method === 'GET' && (path === '/healthz' || path === '/readyz' || path === '/metrics')) {
      return serveHealth(path, res, deps.health);
    }
    let routes: readonly HttpRoute[];
    let inner: string;
    let vendor: SimVendorModule | undefined;
    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
      inner = path.slice(CONTROL_PREFIX.length) || '/';
      const [mount, rest] = splitMount(inner);
      const own = modules.get(mount)?.control;
      routes = own ?? control;
      if (own) inner = rest;
    } else {
      const [mount, rest] = splitMount(path);
      vendor = modules.get(mount);
      routes = vendor?.routes ?? [];
      inner = rest;
    }
    const match = matchRoute(routes, req.method, inner);
    const body = await readBody(req);
    if (body === undefined) {
      res
        .writeHead(413, { 'content-type': 'application/json' })
        .end(JSON.stringify({ detail: 'Payload Too Large' }));
      return;
    }
    const exchange = new HttpExchange(
      req,
      res,
      inner,
      url.searchParams,
      body,
      match.kind === 'found' ? match.params : {},
    );
    if (match.kind === 'found') {
      try {
        await match.route.handle(exchange);
      } catch (error) {
        deps.logger.error({ err: error, vendor: vendor?.vendor, path: inner }, 'vendor-sim handler failed');
        if (!res.headersSent) exchange.sendJson(500, { detail: 'Internal Server Error' });
        else exchange.destroy();
      }
    } else if (match.kind === 'wrong-method') {
      exchange.sendJson(405, { detail: 'Method Not Allowed' });
    } else if (vendor) {
      vendor.notFound(exchange);
    } else {
      exchange.sendJson(404, { detail: 'Not Found' });
    }
  };

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://sim');
    const [mount, inner] = splitMount(url.pathname);
    const vendor = modules.get(mount);
    const match = vendor ? matchRoute(vendor.sockets, undefined, inner) : ({ kind: 'none' } as const);
    if (match.kind !== 'found') {
      writeUpgradeRefusal(socket, 404, { detail: 'Not Found' });
      return;
    }
    const header = (name: string): string | undefined => {
      const value = req.headers[name.toLowerCase()];
      return Array.isArray(value) ? value[0] : value;
    };
    const context: UpgradeContext = {
      req,
      params: match.params,
      query: url.searchParams,
      header,
      protocols: (header('sec-websocket-protocol') ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
      accept: (protocol) =>
        new Promise((resolve) => {
          if (protocol) chosenProtocol.set(req, protocol);
          wss.handleUpgrade(req, socket, head, resolve);
        }),
      refuse: (status, body, headers) => writeUpgradeRefusal(socket, status, body, headers),
    };
    await match.route.upgrade(context);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      deps.logger.error({ err: error }, 'vendor-sim request failed');
      res.destroy();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(req, socket, head).catch((error: unknown) => {
      deps.logger.error({ err: error }, 'vendor-sim upgrade failed');
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = !config.host || config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  deps.logger.info({ port, vendors: [...modules.keys()] }, 'vendor-sim listening');
  return {
    port,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    state,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      wss.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** `/vendor_c/v1/voices` → [`vendor_c`, `/v1/voices`]. */
function splitMount(path: string): [string, string] {
  const match = /^\/([^/]+)(\/.*)?$/.exec(path);
  return match ? [match[1] ?? '', match[2] ?? '/'] : ['', '/'];
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function serveHealth(path: string, res: ServerResponse, health: Health): Promise<void> {
  if (path === '/healthz') {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ status: 'ok', service: health.service }));
    return;
  }
  if (path === '/readyz') {
    const report = await health.readiness();
    const failing = Object.entries(report.checks)
      .filter(([, s]) => s === 'failing')
      .map(([name]) => name);
    res
      .writeHead(report.ready ? 200 : 503, { 'content-type': 'application/json' })
      .end(
        JSON.stringify(
          report.ready
            ? { status: 'ready', checks: report.checks }
            : { status: 'unavailable', failing, checks: report.checks },
        ),
      );
    return;
  }
  const text = await health.metrics.metrics();
  res.writeHead(200, { 'content-type': health.metrics.contentType, 'cache-control': 'no-store' }).end(text);
}

function simMetrics(registry: Registry): SimObserver {
  const counter = (name: string, help: string, labelNames: string[]): Counter =>
    (registry.getSingleMetric(name) as Counter | undefined) ??
    new Counter({ name, help, labelNames, registers: [registry] });
  const calls = counter('vendor_sim_calls_total', 'Synthesis calls the simulated vendors accepted', [
    'vendor',
    'endpoint',
  ]);
  const faults = counter('vendor_sim_faults_total', 'Faults injected into simulated calls', [
    'vendor',
    'kind',
  ]);
  return {
    call: (vendor, endpoint) => calls.inc({ vendor, endpoint }),
    fault: (vendor, kind) => faults.inc({ vendor, kind }),
  };
}
