import type { SoakResult } from './soak';

/** The run's figures and violations, for a person reading the output. */
export function summary(result: SoakResult): string {
  const { figures, violations } = result.verdict;
  const lines = [
    `traffic ${result.trafficSeconds.toFixed(1)} s; faults: ${
      result.faults.map((f) => `${f.fault} at ${f.atS} s`).join(', ') || 'none'
    }`,
    `requests: http ${figures.requests.http.ok} ok, ${figures.requests.http.errors} errors, ${figures.requests.http.hung} hung, ${figures.requests.http.lost} cut after they began; ` +
      `stream sentences ${figures.requests.stream.ok} ok, ${figures.requests.stream.errors} errors, ${figures.requests.stream.hung} hung, ${figures.requests.stream.lost} cut after they began`,
    `errors by code: ${
      Object.entries(figures.errorsByCode)
        .map(([code, e]) => `${code} ${e.count}${e.retryable ? '' : ' (not retryable)'}`)
        .join(', ') || 'none'
    }`,
    `keys: ${figures.sentencesAnswered} sentences answered, ${figures.committedKeys} committed; replies differing from the committed take: ${figures.repliesDifferingFromCommitted}`,
    `vendor calls: ${figures.vendorCalls}; sentences by calls per key: ${JSON.stringify(figures.vendorCallsPerKey)} ` +
      `(besides ${figures.freshWhileStoreDown.vendorCalls} fresh takes while S3 was down, heard ${figures.freshWhileStoreDown.replies} times, ` +
      `and ${figures.cutByFault} takes cut by a killed worker or a NATS outage)`,
    `latency (ms, to the last byte): http p50 ${figures.latencyMs.http.p50.toFixed(1)} p99 ${figures.latencyMs.http.p99.toFixed(1)}; ` +
      `stream p50 ${figures.latencyMs.stream.p50.toFixed(1)} p99 ${figures.latencyMs.stream.p99.toFixed(1)}`,
    ...mirrorLines(result),
    violations.length === 0 ? 'checks: all passed' : `checks: ${violations.length} violations`,
    ...violations.map((v) => `  - ${v}`),
  ];
  return lines.join('\n');
}

/** The mirrors' traffic: totals, then one line per lane (a vendor's surface). */
function mirrorLines(result: SoakResult): string[] {
  const { lanes } = result.mirrors;
  if (lanes.length === 0) return ['mirrors: no traffic'];
  const sum = (pick: (lane: (typeof lanes)[number]) => number): number =>
    lanes.reduce((total, lane) => total + pick(lane), 0);
  const failures = sum((l) => Object.values(l.failures).reduce((a, b) => a + b, 0));
  return [
    `mirrors: ${lanes.length} surfaces of ${new Set(lanes.map((l) => l.vendor)).size} vendors; ` +
      `${sum((l) => l.ok)} ok, ${failures} failed, ${sum((l) => l.hung)} hung, ${sum((l) => l.lost)} cut after they began; ` +
      `${sum((l) => l.vendorCalls)} vendor calls; ${sum((l) => l.bytesCompared)} bytes compared`,
    ...lanes.map(
      (l) =>
        `  ${l.vendor} ${l.surface}: ${l.ok} ok, ${l.sentencesAnswered} sentences, ${l.vendorCalls} calls` +
        (Object.keys(l.failures).length > 0 ? `, failed ${JSON.stringify(l.failures)}` : ''),
    ),
  ];
}
