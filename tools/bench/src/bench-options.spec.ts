import { DEFAULT_OPTIONS, MEASURABLE, parseOptions } from './bench-options';

describe('parseOptions', () => {
  it('gives the defaults without arguments: 1 and 50 concurrent, every measurable variant', () => {
    expect(parseOptions([])).toEqual(DEFAULT_OPTIONS);
    expect(DEFAULT_OPTIONS.concurrency).toEqual([1, 50]);
    expect(DEFAULT_OPTIONS.variants).toEqual([...MEASURABLE]);
  });

  it('reads counts, lists and flags', () => {
    const o = parseOptions([
      '--concurrency=1,8',
      '--requests=300',
      '--variants=direct,miss',
      '--cpu-prof',
      '--ttfa-ms=0',
    ]);
    expect(o.concurrency).toEqual([1, 8]);
    expect(o.requests).toBe(300);
    expect(o.variants).toEqual(['direct', 'miss']);
    expect(o.cpuProfile).toBe(true);
    expect(o.ttfaMs).toBe(0);
    expect(parseOptions(['--log-level=info']).logLevel).toBe('info');
  });

  it("measures only the speech endpoint's variants in the speech benchmark, none of the peer benchmark's", () => {
    expect(DEFAULT_OPTIONS.variants).toContain('miss');
    expect(DEFAULT_OPTIONS.variants.filter((v) => /^(d-|c-|a-ws-|prime-|stream-)/.test(v))).toEqual([]);
  });

  it('runs every benchmark unless --only names one', () => {
    expect(DEFAULT_OPTIONS.benchmarks).toEqual(['speech', 'stream', 'peer']);
    expect(parseOptions(['--only=peer']).benchmarks).toEqual(['peer']);
    expect(parseOptions(['--only=stream']).benchmarks).toEqual(['stream']);
    expect(parseOptions(['--only=speech', '--stream-connections=10']).streamConnections).toBe(10);
    expect(() => parseOptions(['--only=voice'])).toThrow('--only must be one of speech, stream, peer');
  });

  it('runs the request log benchmark only when named, with its rounds and requests', () => {
    expect(DEFAULT_OPTIONS.benchmarks).not.toContain('request-log');
    const o = parseOptions(['--only=request-log', '--request-log-rounds=4', '--request-log-requests=800']);
    expect(o.benchmarks).toEqual(['request-log']);
    expect(o.requestLogRounds).toBe(4);
    expect(o.requestLogRequests).toBe(800);
    expect(DEFAULT_OPTIONS.requestLogRounds).toBeGreaterThanOrEqual(3);
    expect(parseOptions(['--quick']).requestLogRounds).toBeGreaterThanOrEqual(3);
    expect(() => parseOptions(['--request-log-rounds=0'])).toThrow('--request-log-rounds must be an integer');
  });

  it('runs the capacity benchmark only when named: 10 sessions doubled, 30 % repeats, a 250 ms bound', () => {
    expect(DEFAULT_OPTIONS.benchmarks).not.toContain('capacity');
    expect(parseOptions(['--only=capacity']).benchmarks).toEqual(['capacity']);
    expect(DEFAULT_OPTIONS.capacityFrom).toBe(10);
    expect(DEFAULT_OPTIONS.capacityRepeatPercent).toBe(30);
    expect(DEFAULT_OPTIONS.capacityBoundMs).toBe(250);
    const o = parseOptions([
      '--capacity-bound-ms=100',
      '--capacity-repeat-percent=0',
      '--capacity-max-sessions=80',
    ]);
    expect([o.capacityBoundMs, o.capacityRepeatPercent, o.capacityMaxSessions]).toEqual([100, 0, 80]);
    expect(parseOptions(['--quick']).capacityMaxSessions).toBeLessThan(DEFAULT_OPTIONS.capacityMaxSessions);
    expect(() => parseOptions(['--capacity-repeat-percent=101'])).toThrow('at most 100');
    expect(() => parseOptions(['--capacity-from=0'])).toThrow('--capacity-from must be an integer >= 1');
  });

  it('makes --quick small, and later arguments still win', () => {
    const o = parseOptions(['--quick', '--requests=90']);
    expect(o.requests).toBe(90);
    expect(o.cpuRequests).toBeLessThan(DEFAULT_OPTIONS.cpuRequests);
  });

  it('collects --app-env pairs for every app and refuses one without a name', () => {
    const o = parseOptions(['--app-env=V8_HEAP_GROWING_PERCENT=0,LOG_LEVEL=info', '--app-env=X_Y=a=b']);
    expect(o.appEnv).toEqual({ V8_HEAP_GROWING_PERCENT: '0', LOG_LEVEL: 'info', X_Y: 'a=b' });
    expect(DEFAULT_OPTIONS.appEnv).toEqual({});
    expect(() => parseOptions(['--app-env=novalue'])).toThrow(/NAME=value/);
  });

  it('runs one worker unless --workers=2, and refuses any other count', () => {
    expect(DEFAULT_OPTIONS.workers).toBe(1);
    expect(parseOptions(['--workers=2']).workers).toBe(2);
    expect(parseOptions(['--workers=1']).workers).toBe(1);
    for (const bad of ['--workers=0', '--workers=3', '--workers=', '--workers=two']) {
      expect(() => parseOptions([bad])).toThrow(/--workers must be 1 or 2/);
    }
  });

  it('keeps --node-options whole, the equals signs of its V8 flags included', () => {
    const o = parseOptions(['--node-options=--max-semi-space-size=32 --max-old-space-size=512']);
    expect(o.nodeOptions).toBe('--max-semi-space-size=32 --max-old-space-size=512');
    expect(DEFAULT_OPTIONS.nodeOptions).toBeUndefined();
  });

  it('refuses unknown arguments, bad counts and variants that only prime', () => {
    expect(() => parseOptions(['--fast'])).toThrow('unknown argument --fast');
    expect(() => parseOptions(['--requests=0'])).toThrow('--requests must be an integer >= 1');
    expect(() => parseOptions(['--concurrency=1,x'])).toThrow('--concurrency');
    expect(() => parseOptions(['--variants=prime-cold'])).toThrow('prime-cold is not one of');
    expect(() => parseOptions(['--log-level=loud'])).toThrow('--log-level must be one of');
  });
});
