import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What a worker reports of its vendor calls and leases (an app's registry; the standalone shares one). */
export interface SynthesisMetrics {
  /** A vendor call's end: `ok`, or the RouterError code it failed with. */
  called(vendor: string, outcome: string): void;
  /** The wait from a vendor call's start to its first audio. */
  firstAudio(vendor: string, seconds: number): void;
}

/** Seconds to first audio: a cached piece takes milliseconds, a vendor's first audio a few hundred. */
export const FIRST_AUDIO_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10];

function single<T>(registry: Registry, name: string, create: () => T): T {
  return (registry.getSingleMetric(name) as T | undefined) ?? create();
}

export function synthesisMetrics(registry: Registry): SynthesisMetrics {
  const calls = single(
    registry,
    'synthesis_vendor_calls_total',
    () =>
      new Counter({
        name: 'synthesis_vendor_calls_total',
        help: 'Vendor calls the workers made, by vendor and outcome (ok, or the error code they failed with)',
        labelNames: ['vendor', 'outcome'],
        registers: [registry],
      }),
  );
  const firstAudio = single(
    registry,
    'synthesis_vendor_first_audio_seconds',
    () =>
      new Histogram({
        name: 'synthesis_vendor_first_audio_seconds',
        help: "Seconds from a vendor call's start to the vendor's first audio, by vendor",
        labelNames: ['vendor'],
        buckets: FIRST_AUDIO_BUCKETS,
        registers: [registry],
      }),
  );
  return {
    called: (vendor, outcome) => calls.inc({ vendor, outcome }),
    firstAudio: (vendor, seconds) => firstAudio.observe({ vendor }, seconds),
  };
}

/** The shards of the cache keys a worker leases now; 0 for long means it takes no part in leasing. */
export function leasedShardsGauge(registry: Registry, held: () => number): void {
  new Gauge({
    name: 'synthesis_leased_shards',
    help: 'Shards of the cache keys this worker holds a lease on (renewed within half a lease)',
    registers: [registry],
    collect() {
      this.set(held());
    },
  });
}
