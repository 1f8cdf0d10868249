/** PromQL's functions, aggregations and keywords: every other name in an expression is a series. */
const NOT_SERIES = new Set([
  // aggregations and their modifiers
  'sum',
  'min',
  'max',
  'avg',
  'group',
  'stddev',
  'stdvar',
  'count',
  'count_values',
  'bottomk',
  'topk',
  'quantile',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'and',
  'or',
  'unless',
]);

/**
 * The series (metric) names a PromQL expression reads: what remains once strings, label matchers, grouping
 * clauses, ranges, offsets, Grafana's variables and the names of functions (a name before a parenthesis) and
 * keywords are taken out.
 */
export function promqlSeries(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\boffset\s+[0-9a-z]+/g, ' ')
    .replace(/\$\{?[A-Za-z_]\w*\}?/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/(?<![\w.])([A-Za-z_:][\w:]*)(\s*\()?/g)) {
    const [, name, call] = match;
    if (call || NOT_SERIES.has(name) || /^(e|inf|nan)$/i.test(name)) continue;
    names.add(name);
  }
  return [...names].sort();
}

/**
 * The series names a Prometheus text exposition (an app's `/metrics`) serves, from its `# TYPE` lines: a
 * histogram's `_bucket`, `_sum` and `_count`, a summary's `_sum` and `_count`, every other metric its own name.
 * A labelled metric with no sample yet still counts: it is registered and will be served once counted.
 */
export function exposedSeries(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    if (type === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
  }
  return names;
}
