import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';

export interface ReadinessCheck {
  /** Named in the 503 body, e.g. `nats`, `database`, `blob-store`. */
  name: string;
  check(): boolean | Promise<boolean>;
  /**
   * A dependency the app keeps serving without for a while (PostgreSQL: an outage is served from what the
   * process holds): when it fails it is reported `degraded` (and 0 to Prometheus) but the app stays ready, so
   * a load balancer does not take every replica out at once for it.
   */
  degradesOnly?: boolean;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | 'failing' | 'degraded'>;
}

/** Each readiness check's state at scrape time (1 passing, 0 failing): NATS, the database, the blob store. */
export const READINESS_METRIC = 'router_readiness_check';

/**
 * Liveness, readiness and metrics for one app. Libraries register the dependencies they need (the bus
 * registers `nats`), so `/readyz` names exactly what is down, and `router_readiness_check{check}` says the same
 * to Prometheus (the checks run at each scrape).
 */
export class Health {
  readonly metrics = new Registry();
  private readonly checks: ReadinessCheck[] = [];

  constructor(readonly service: string) {
    this.metrics.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.metrics });
    const checks = this.checks;
    new Gauge({
      name: READINESS_METRIC,
      help: 'Each readiness check of the app at scrape time: 1 passing, 0 failing (nats, database, blob-store, draining)',
      labelNames: ['check'],
      registers: [this.metrics],
      async collect() {
        this.reset();
        const results = await Promise.all(
          checks.map(async (c) => [c.name, await withTimeout(() => c.check(), 2000)] as const),
        );
        for (const [check, ok] of results) this.set({ check }, ok ? 1 : 0);
      },
    });
  }

  addCheck(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  async readiness(timeoutMs = 2000): Promise<ReadinessReport> {
    const results = await Promise.all(
      this.checks.map(async (c) => [c, await withTimeout(() => c.check(), timeoutMs)] as const),
    );
    return {
      ready: results.every(([c, ok]) => ok || c.degradesOnly === true),
      checks: Object.fromEntries(
        results.map(([c, ok]) => [c.name, ok ? 'ok' : c.degradesOnly ? 'degraded' : 'failing']),
      ),
    };
  }
}

async function withTimeout(check: ReadinessCheck['check'], timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(check),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
