import type { SoakResult } from './soak';

/** The run's figures and violations, for a person reading the output. */
export function summary(result: SoakResult): string {
  const { figures, violations } = result.verdict;
  const lines = [
    `traffic ${result.trafficSeconds.toFixed(1)} s; faults: ${
      result.faults.map((f) => `${f.fault} at ${f.atS} s`).join(', ') || 'none'
    }`,
    `requests: http ${figures.requests.http.ok} ok, ${figures.requests.http.errors} errors, ${figures.requests.http.hung} hung; ` +
      `stream sentences ${figures.requests.stream.ok} ok, ${figures.requests.stream.errors} errors, ${figures.requests.stream.hung} hung`,
    `errors by code: ${
      Object.entries(figures.errorsByCode)
        .map(([code, e]) => `${code} ${e.count}${e.retryable ? '' : ' (not retryable)'}`)
        .join(', ') || 'none'
    }`,
    `keys: ${figures.sentencesAnswered} sentences answered, ${figures.committedKeys} committed; replies differing from the committed take: ${figures.repliesDifferingFromCommitted}`,
    `vendor calls: ${figures.vendorCalls}; sentences by calls per key: ${JSON.stringify(figures.vendorCallsPerKey)} ` +
      `(besides ${figures.freshWhileStoreDown.vendorCalls} fresh takes while S3 was down, heard ${figures.freshWhileStoreDown.replies} times, ` +
      `and ${figures.cutByKill} takes cut by a killed worker)`,
    `latency (ms, to the last byte): http p50 ${figures.latencyMs.http.p50.toFixed(1)} p99 ${figures.latencyMs.http.p99.toFixed(1)}; ` +
      `stream p50 ${figures.latencyMs.stream.p50.toFixed(1)} p99 ${figures.latencyMs.stream.p99.toFixed(1)}`,
    violations.length === 0 ? 'checks: all passed' : `checks: ${violations.length} violations`,
    ...violations.map((v) => `  - ${v}`),
  ];
  return lines.join('\n');
}
