import type { Bus, Subscription } from '@router/bus';
import { healthSynthesisV1 } from '@router/contracts';

export const SYNTHESIS_SERVICE = 'synthesis-worker';

/** The worker's subjects. Synthesis itself (`synth.take.v1`) joins this list with the speech pipeline. */
export function serveSynthesis(bus: Bus, startedAt: number, now: () => number = Date.now): Subscription[] {
  return [
    bus.serve(healthSynthesisV1, () => ({
      service: SYNTHESIS_SERVICE,
      ok: true,
      uptimeMs: Math.max(0, now() - startedAt),
    })),
  ];
}
