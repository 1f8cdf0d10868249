import type { Health, Logger } from '@router/observability';
import { composeModules, listeningPort, ServiceKitModule, startHttpApp } from '@router/service-kit';

export interface VendorSimConfig {
  port: number;
  host?: string;
}

export interface RunningVendorSim {
  port: number;
  close(): Promise<void>;
}

/**
 * The simulated vendors' server. Each vendor's simulator (its wire protocol, per-take audio, pacing, faults
 * and call counters) is mounted here as it lands with the speech issues; today it serves health only.
 */
export async function startVendorSim(
  config: VendorSimConfig,
  deps: { logger: Logger; health: Health },
): Promise<RunningVendorSim> {
  const app = await startHttpApp(composeModules('VendorSimRoot', [ServiceKitModule.forRoot(deps)]), {
    logger: deps.logger,
    port: config.port,
    ...(config.host ? { host: config.host } : {}),
  });
  return { port: listeningPort(app), close: () => app.close() };
}
