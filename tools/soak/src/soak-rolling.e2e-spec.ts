import { DEFAULT_OPTIONS } from './soak-options';
import { runSoak } from './soak';
import { summary } from './soak-summary';

/**
 * The soak's rolling restart, short: mixed speech and /v1/stream traffic while every app but the simulated
 * vendor is told to stop (SIGTERM) in turn and replaced once it has drained. It passes only when no reply that
 * had begun was cut, every reply of a sentence is its one committed take (one vendor call per key, no partial
 * entry), and every error said it was worth retrying.
 */
describe('soak with a rolling restart of every app (short)', () => {
  it('loses no reply that had begun, and every reply of a key is its one committed take', async () => {
    const result = await runSoak(
      {
        ...DEFAULT_OPTIONS,
        // One restart of all 15 apps, a second or two each.
        seconds: 50,
        httpClients: 3,
        streamSessions: 2,
        sentences: 30,
        // Native traffic only, as it was measured; the long soak (docs/reliability.md) rolls under mirror traffic.
        mirrorClients: 0,
        faults: true,
        faultKinds: ['restart'],
        faultGapMs: 2000,
        appEnv: { DRAIN_MS: '4000' },
      },
      (line) => process.stderr.write(`soak: ${line}\n`),
    );
    process.stderr.write(`${summary(result)}\n`);
    expect(result.faults.map((f) => f.fault)).toContain('rolling restart');
    expect(result.verdict.figures.requests.http.ok).toBeGreaterThan(0);
    expect(result.verdict.figures.requests.stream.ok).toBeGreaterThan(0);
    expect(result.verdict.violations).toEqual([]);
  }, 300_000);
});
