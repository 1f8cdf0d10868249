import { Registry, collectDefaultMetrics } from 'prom-client';

export interface ReadinessCheck {
  /** Named in the 503 body, e.g. `nats`, `database`, `blob-store`. */
  name: string;
  check(): boolean | Promise<boolean>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, 'ok' | 'failing'>;
}

/**
 * Liveness, readiness and metrics for one app. Libraries register the dependencies they need (the bus
 * registers `nats`), so `/readyz` names exactly what is down.
 */
export class Health {
  readonly metrics = new Registry();
  private readonly checks: ReadinessCheck[] = [];

  constructor(readonly service: string) {
    this.metrics.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.metrics });
  }

  addCheck(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  async readiness(timeoutMs = 2000): Promise<ReadinessReport> {
    const results = await Promise.all(
      this.checks.map(async (c) => [c.name, await withTimeout(() => c.check(), timeoutMs)] as const),
    );
    return {
      ready: results.every(([, ok]) => ok),
      checks: Object.fromEntries(results.map(([name, ok]) => [name, ok ? 'ok' : 'failing'])),
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
