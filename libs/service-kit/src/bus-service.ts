import type { Bus, Subscription } from '@router/bus';
import type { Health, Logger } from '@router/observability';
import { composeModules, listeningPort, startHttpApp } from './bootstrap';
import { Drain, within } from './drain';
import { ServiceKitModule } from './service-kit.module';

export interface BusServiceOptions {
  name: string;
  port: number;
  host?: string;
  bus: Bus;
  logger: Logger;
  health: Health;
  /** Subscribes the service's handlers; each is ready before the service reports itself started. */
  serve(bus: Bus): Subscription[];
  /**
   * What the service finishes once told to stop (a worker's running takes); without it, draining only fails
   * readiness, and the handlers keep answering until `close`.
   */
  drain?(): Promise<void>;
}

export interface RunningBusService {
  port: number;
  /** Fails readiness and waits up to `ms` for the service's own drain. */
  drain(ms: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A service that works over the bus (synthesis-worker, cache-service): its handlers on the bus, and an HTTP
 * port only for `/healthz`, `/readyz` and `/metrics`.
 */
export async function startBusService(options: BusServiceOptions): Promise<RunningBusService> {
  const draining = new Drain(options.health);
  const subscriptions = options.serve(options.bus);
  await Promise.all(subscriptions.map((s) => s.ready()));
  const app = await startHttpApp(
    composeModules(`${options.name}-root`, [
      ServiceKitModule.forRoot({ logger: options.logger, health: options.health }),
    ]),
    { logger: options.logger, port: options.port, ...(options.host ? { host: options.host } : {}) },
  );
  const port = listeningPort(app);
  options.logger.info({ port, subjects: subscriptions.map((s) => s.subject) }, `${options.name} serving`);
  return {
    port,
    async drain(ms) {
      draining.begin();
      await within(options.drain?.() ?? Promise.resolve(), ms);
    },
    async close() {
      subscriptions.forEach((s) => s.unsubscribe());
      await app.close();
    },
  };
}
