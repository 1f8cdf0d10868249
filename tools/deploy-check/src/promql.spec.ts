import { exposedSeries, promqlSeries } from './promql';

describe('promqlSeries', () => {
  it('finds the series of an alert rule, not its functions, labels, ranges or keywords', () => {
    expect(
      promqlSeries(
        'sum by (surface) (rate(gateway_responses_total{status_class="5xx"}[5m])) / sum by (surface) (rate(gateway_responses_total[5m])) > 0.05',
      ),
    ).toEqual(['gateway_responses_total']);
    expect(
      promqlSeries(
        '(sum(rate(router_cache_usage_total{kind="hit"}[1h])) / sum(rate(x_total[1h]))) < 0.5 * (sum(rate(y_total{a="b"}[1h] offset 1d)))',
      ),
    ).toEqual(['router_cache_usage_total', 'x_total', 'y_total']);
  });

  it("takes Grafana's variables out and keeps series compared with a number or joined by and/or", () => {
    expect(
      promqlSeries(
        'histogram_quantile(0.99, sum by (le, source) (rate(router_piece_first_audio_seconds_bucket[$__rate_interval])))',
      ),
    ).toEqual(['router_piece_first_audio_seconds_bucket']);
    expect(promqlSeries('router_readiness_check{check="nats"} == 0 and on (pod) up')).toEqual([
      'router_readiness_check',
      'up',
    ]);
    expect(promqlSeries('count by (service, check) (router_readiness_check == 0)')).toEqual([
      'router_readiness_check',
    ]);
  });

  it('is not fooled by a label value that looks like a series or a number in exponent form', () => {
    expect(promqlSeries('a_total{outcome=~"provider_timeout|internal"} > 1e3')).toEqual(['a_total']);
  });
});

describe('exposedSeries', () => {
  it("reads each metric's series from its TYPE line, a histogram's and a summary's parts included", () => {
    const exposition = [
      '# HELP a_total A counter.',
      '# TYPE a_total counter',
      'a_total{x="1"} 2',
      '# TYPE b_seconds histogram',
      'b_seconds_bucket{le="1"} 1',
      '# TYPE c summary',
      '# TYPE d gauge',
    ].join('\n');
    expect([...exposedSeries(exposition)].sort()).toEqual(
      [
        'a_total',
        'b_seconds',
        'b_seconds_bucket',
        'b_seconds_count',
        'b_seconds_sum',
        'c',
        'c_count',
        'c_sum',
        'd',
      ].sort(),
    );
  });
});
