// Every series the chart's alert rules and its Grafana dashboard read is one the apps expose: each app of the
// e2e stack (started from dist/ as a deployment runs them) is asked for its /metrics, and every series name
// in the rules (rendered by helm) and in the dashboard's queries must be among them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readE2eStack, STACK_APPS } from '@router/testing';
import { CHART_DIR, type K8sObject, renderChart } from './helm';
import { exposedSeries, promqlSeries } from './promql';

interface DashboardPanel {
  title?: string;
  targets?: { expr?: string }[];
  panels?: DashboardPanel[];
}
interface PrometheusRule extends K8sObject {
  spec: { groups: { rules: { alert: string; expr: string }[] }[] };
}

const stack = readE2eStack();

/** Each app's /metrics URL: its PORT, or the gateway's internal port. */
const metricsUrls = STACK_APPS.map((app) => [
  app,
  app === 'edge-gateway'
    ? `${stack.gatewayInternalUrl}/metrics`
    : `http://127.0.0.1:${stack.ports[app]}/metrics`,
]);

function dashboardQueries(): { where: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(join(CHART_DIR, 'dashboards', 'router.json'), 'utf8')) as {
    panels: DashboardPanel[];
  };
  const all = (panels: DashboardPanel[]): DashboardPanel[] =>
    panels.flatMap((panel) => [panel, ...all(panel.panels ?? [])]);
  return all(dashboard.panels).flatMap((panel) =>
    (panel.targets ?? []).flatMap((target) =>
      target.expr ? [{ where: `dashboard panel "${panel.title ?? ''}"`, expr: target.expr }] : [],
    ),
  );
}

function alertQueries(): { where: string; expr: string }[] {
  const { objects } = renderChart({ set: ['monitoring.prometheusRule.enabled=true'] });
  const rules = objects.filter((object): object is PrometheusRule => object.kind === 'PrometheusRule');
  expect(rules).toHaveLength(1);
  return rules[0].spec.groups.flatMap((group) =>
    group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
  );
}

describe('the series the alerts and the dashboard read', () => {
  let exposed: Set<string>;

  beforeAll(async () => {
    exposed = new Set();
    for (const [app, url] of metricsUrls) {
      const res = await fetch(url);
      if (res.status !== 200) throw new Error(`${app}: ${url} answered ${res.status}`);
      for (const name of exposedSeries(await res.text())) exposed.add(name);
    }
  });

  it('come from apps that serve their own series (the route of this check works)', () => {
    for (const name of ['gateway_requests_total', 'router_readiness_check', 'synthesis_leased_shards']) {
      expect(exposed).toContain(name);
    }
  });

  it.each([
    ['alert rules', alertQueries],
    ['Grafana dashboard', dashboardQueries],
  ])('in the %s are each exposed by some app', (_what, queries) => {
    const read = queries();
    expect(read.length).toBeGreaterThan(5);
    const missing = read.flatMap(({ where, expr }) =>
      promqlSeries(expr)
        .filter((name) => !exposed.has(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('cover what the dashboard must show: surfaces, vendors, first audio, the cache, sockets, leases, health', () => {
    const series = new Set(dashboardQueries().flatMap(({ expr }) => promqlSeries(expr)));
    for (const name of [
      'gateway_requests_total',
      'gateway_responses_total',
      'synthesis_vendor_calls_total',
      'router_piece_first_audio_seconds_bucket',
      'router_cache_usage_total',
      'router_cache_usage_chars_total',
      'gateway_open_sockets',
      'router_open_sockets',
      'synthesis_leased_shards',
      'router_readiness_check',
    ]) {
      expect(series).toContain(name);
    }
  });
});
