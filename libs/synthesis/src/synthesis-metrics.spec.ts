import { Registry } from 'prom-client';
import { leasedShardsGauge, synthesisMetrics } from './synthesis-metrics';

const lines = async (registry: Registry, prefix: string): Promise<string[]> =>
  (await registry.metrics()).split('\n').filter((line) => line.startsWith(prefix));

describe('synthesisMetrics', () => {
  it('counts vendor calls by vendor and outcome, in one set of series however many workers share a registry', async () => {
    const registry = new Registry();
    const first = synthesisMetrics(registry);
    const second = synthesisMetrics(registry);
    first.called('vendor_a', 'ok');
    second.called('vendor_a', 'ok');
    second.called('vendor_a', 'provider_timeout');
    expect(await lines(registry, 'synthesis_vendor_calls_total{')).toEqual([
      'synthesis_vendor_calls_total{vendor="vendor_a",outcome="ok"} 2',
      'synthesis_vendor_calls_total{vendor="vendor_a",outcome="provider_timeout"} 1',
    ]);
  });

  it('puts each first audio in its latency bucket, by vendor', async () => {
    const registry = new Registry();
    const metrics = synthesisMetrics(registry);
    metrics.firstAudio('vendor_c', 0.15);
    metrics.firstAudio('vendor_c', 4);
    const buckets = await lines(registry, 'synthesis_vendor_first_audio_seconds_bucket{');
    expect(buckets).toContain('synthesis_vendor_first_audio_seconds_bucket{le="0.2",vendor="vendor_c"} 1');
    expect(buckets).toContain('synthesis_vendor_first_audio_seconds_bucket{le="5",vendor="vendor_c"} 2');
    expect(await lines(registry, 'synthesis_vendor_first_audio_seconds_count{')).toEqual([
      'synthesis_vendor_first_audio_seconds_count{vendor="vendor_c"} 2',
    ]);
  });

  it('reports the leased shards as the worker holds them at scrape time', async () => {
    const registry = new Registry();
    let held = 12;
    leasedShardsGauge(registry, () => held);
    expect(await lines(registry, 'synthesis_leased_shards ')).toEqual(['synthesis_leased_shards 12']);
    held = 0;
    expect(await lines(registry, 'synthesis_leased_shards ')).toEqual(['synthesis_leased_shards 0']);
  });
});
