import { DEFAULT_OPTIONS } from './soak-options';
import { runSoak } from './soak';
import { summary } from './soak-summary';

/**
 * The soak's short version: about 30 s of mixed traffic (native speech, /v1/stream, and every mirror surface of
 * the ten vendors) with a worker killed and NATS, S3 and PostgreSQL stopped and restarted, on services and a
 * stack of its own (it reads nothing the e2e global setup started). It passes only when every check passes:
 * replies equal to the committed takes (on a mirror: every reply of a sentence one and the same take), one
 * vendor call per key, no partial cache entry, no error that is not retryable, no 500, no request hung.
 */
describe('soak with faults (short)', () => {
  it('keeps every reply equal to its committed take, with one vendor call per key and no partial entry', async () => {
    const result = await runSoak(
      {
        ...DEFAULT_OPTIONS,
        seconds: 35,
        httpClients: 3,
        streamSessions: 2,
        sentences: 30,
        faults: true,
        mirrorClients: 4,
        mirrorSentences: 4,
        // The kill last: a worker's restart can take many seconds on a loaded machine.
        faultKinds: ['nats', 's3', 'postgres', 'kill'],
        faultDownMs: 1500,
        faultGapMs: 1000,
      },
      (line) => process.stderr.write(`soak: ${line}\n`),
    );
    process.stderr.write(`${summary(result)}\n`);
    // Each of the four faults once at least (a worker's restart takes a few seconds on a busy machine).
    expect(result.faults.map((f) => f.fault)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^kill synthesis-worker/),
        'stop NATS',
        'stop S3',
        'stop PostgreSQL',
      ]),
    );
    expect(result.verdict.figures.requests.http.ok).toBeGreaterThan(0);
    expect(result.verdict.figures.requests.stream.ok).toBeGreaterThan(0);
    // Every vendor's mirrors had traffic, and replies came on mirror REST and mirror sockets.
    const tried = result.mirrors.lanes.filter(
      (lane) => lane.ok + lane.hung + Object.values(lane.failures).reduce((a, b) => a + b, 0) > 0,
    );
    expect(new Set(tried.map((lane) => lane.vendor)).size).toBe(10);
    const answered = result.mirrors.lanes.filter((lane) => lane.ok > 0);
    expect(answered.filter((lane) => lane.surface.startsWith('REST')).length).toBeGreaterThan(0);
    expect(answered.filter((lane) => lane.surface.startsWith('socket')).length).toBeGreaterThan(0);
    expect(result.verdict.violations).toEqual([]);
  }, 180_000);
});
