import { Health } from './health';

describe('Health', () => {
  it('reports each readiness check to Prometheus at scrape time, 1 passing and 0 failing', async () => {
    const health = new Health('test-app');
    let natsUp = true;
    health.addCheck({ name: 'nats', check: () => natsUp });
    health.addCheck({ name: 'database', check: () => Promise.reject(new Error('down')) });
    const scrape = async (): Promise<string[]> =>
      (await health.metrics.metrics())
        .split('\n')
        .filter((line) => line.startsWith('router_readiness_check{'));
    expect(await scrape()).toEqual([
      'router_readiness_check{check="nats",service="test-app"} 1',
      'router_readiness_check{check="database",service="test-app"} 0',
    ]);
    natsUp = false;
    expect(await scrape()).toContain('router_readiness_check{check="nats",service="test-app"} 0');
  });

  it('answers readiness with the failing checks named', async () => {
    const health = new Health('test-app');
    health.addCheck({ name: 'nats', check: () => true });
    health.addCheck({ name: 'blob-store', check: () => false });
    expect(await health.readiness()).toEqual({
      ready: false,
      checks: { nats: 'ok', 'blob-store': 'failing' },
    });
  });

  it('stays ready while a check that only degrades it fails, and names it degraded', async () => {
    const health = new Health('test-app');
    health.addCheck({ name: 'nats', check: () => true });
    health.addCheck({ name: 'database', check: () => false, degradesOnly: true });
    expect(await health.readiness()).toEqual({ ready: true, checks: { nats: 'ok', database: 'degraded' } });
  });
});
