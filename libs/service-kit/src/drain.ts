import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Bus, Subscription } from '@router/bus';
import { gatewayDrainingV1, RouterError } from '@router/contracts';
import type { Health } from '@router/observability';
import { serveInFront } from './plain-route';

/**
 * What a process still has in hand once it was told to stop (SIGTERM): it fails `/readyz` (the check
 * `draining`), takes no new work, and lets the work it had finish. Work is counted with `enter()`; `idle()`
 * resolves once none is open. The deadline (`DRAIN_MS`) is the caller's (`runService`).
 */
export class Drain {
  private started = false;
  private open = 0;
  private readonly waiters = new Set<() => void>();

  constructor(health?: Health) {
    health?.addCheck({ name: 'draining', check: () => !this.started });
  }

  get draining(): boolean {
    return this.started;
  }

  begin(): void {
    this.started = true;
  }

  /** Counts work that began; the function returned ends it (calling it again does nothing). */
  enter(): () => void {
    this.open += 1;
    let over = false;
    return () => {
      if (over) return;
      over = true;
      this.open -= 1;
      if (this.open === 0) {
        for (const wake of this.waiters) wake();
        this.waiters.clear();
      }
    };
  }

  /** Resolves once no counted work is open (at once when none is). */
  idle(): Promise<void> {
    if (this.open === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.add(resolve));
  }
}

/** The words every surface's "unavailable" carries while its app drains. */
export const DRAINING_MESSAGE = 'This router process is restarting; retry (another one takes the request).';

/** The error a request or handshake gets while its app drains. */
export function drainingError(): RouterError {
  return RouterError.unavailable(DRAINING_MESSAGE);
}

/** Waits for `work`, at most `ms` (a drain's deadline); never rejects. */
export async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.max(0, ms));
    }),
  ]);
  clearTimeout(timer);
}

const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Puts the drain in front of everything an HTTP server answers: the probes always pass; while draining, any
 * other request is refused with `refuse` (the surface's retryable "unavailable") on a connection that then
 * closes; otherwise the request is counted until its answer is over.
 */
export function gateRequests(
  server: Server,
  drain: Drain,
  refuse: (req: IncomingMessage, res: ServerResponse) => void,
): void {
  serveInFront(server, (req, res) => {
    if (PROBES.has((req.url ?? '/').split('?')[0] ?? '/')) return false;
    if (drain.draining) {
      res.shouldKeepAlive = false;
      req.resume();
      refuse(req, res);
      return true;
    }
    res.once('close', drain.enter());
    return false;
  });
}

/** The native envelope's 503 `unavailable` for a request that came while its app drains. */
export function refuseDraining(_req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify(drainingError().toEnvelope());
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': '1',
    connection: 'close',
  });
  res.end(body);
}

/**
 * On an app behind the gateway: when a gateway says it is going away, the sockets that came through it are
 * drained (each plays out what it was given, then closes with its surface's going-away code).
 */
export function followGatewayDrains(bus: Bus, sockets: { drain(via?: string): Promise<void> }): Subscription {
  return bus.subscribe(gatewayDrainingV1, ({ gatewayId }) => void sockets.drain(gatewayId));
}
