import { DEFAULT_OPTIONS } from './soak-options';
import { runSoak } from './soak';
import { summary } from './soak-summary';

/**
 * The soak's short version: about 30 s of mixed traffic with a worker killed and NATS and S3 stopped and
 * restarted, on services and a stack of its own (it reads nothing the e2e global setup started). It passes
 * only when every check passes: replies equal to the committed takes, one vendor call per key, no partial
 * cache entry, no error that is not retryable, no request hung.
 */
describe('soak with faults (short)', () => {
  it('keeps every reply equal to its committed take, with one vendor call per key and no partial entry', async () => {
    const result = await runSoak(
      {
        ...DEFAULT_OPTIONS,
        seconds: 30,
        httpClients: 3,
        streamSessions: 2,
        sentences: 30,
        faults: true,
        faultDownMs: 2000,
        faultGapMs: 2500,
      },
      (line) => process.stderr.write(`soak: ${line}\n`),
    );
    process.stderr.write(`${summary(result)}\n`);
    // Each of the three faults once at least (a worker's restart takes a few seconds on a busy machine).
    expect(result.faults.map((f) => f.fault)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^kill synthesis-worker/), 'stop NATS', 'stop S3']),
    );
    expect(result.verdict.figures.requests.http.ok).toBeGreaterThan(0);
    expect(result.verdict.figures.requests.stream.ok).toBeGreaterThan(0);
    expect(result.verdict.violations).toEqual([]);
  }, 180_000);
});
