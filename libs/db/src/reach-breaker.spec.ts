import { isStoreUnreachable } from '@router/contracts';
import { DatabaseOutOfReachError, ReachBreaker } from './reach-breaker';

/** What node-postgres gives for an answer that never came, and for an error the server sent. */
const hung = (): Error => new Error('Query read timeout');
const serverError = (code: string): Error =>
  Object.assign(new Error('canceling statement'), { code, severity: 'ERROR' });

describe('ReachBreaker', () => {
  /** The probes asked for; each ends when the test settles it. */
  let probes: Array<{ end: () => void }>;
  let breaker: ReachBreaker;

  beforeEach(() => {
    jest.useFakeTimers();
    probes = [];
    breaker = new ReachBreaker({
      retryMs: 1000,
      probe: () => new Promise<void>((resolve) => probes.push({ end: resolve })),
    });
  });

  afterEach(() => {
    breaker.stop();
    jest.useRealTimers();
  });

  /** Lets the probe's promise callbacks run. */
  const settle = async (): Promise<void> => {
    await Promise.resolve();
    await Promise.resolve();
    await Promise.resolve();
  };

  it('lets every use through while nothing has failed, and probes nothing', () => {
    expect([breaker.refusal(), breaker.refusal()]).toEqual([undefined, undefined]);
    jest.advanceTimersByTime(10_000);
    expect(probes).toHaveLength(0);
  });

  it('refuses every use once a wait ran out, with an error the fallbacks know', () => {
    breaker.settled(hung());
    const refusal = breaker.refusal();
    expect(refusal).toBeInstanceOf(DatabaseOutOfReachError);
    expect(isStoreUnreachable(refusal)).toBe(true);
    breaker.settled(new Error('Connection terminated due to connection timeout')); // another one in flight
    expect(breaker.refusal()).toBeInstanceOf(DatabaseOutOfReachError);
  });

  it.each(['Connection terminated due to connection timeout', 'timeout exceeded when trying to connect'])(
    'opens on a connection not had in time (%s)',
    (message) => {
      breaker.settled(new Error(message));
      expect(breaker.refusal()).toBeInstanceOf(DatabaseOutOfReachError);
    },
  );

  it('is not opened by a failure that cost no wait: a stopped server is tried again at once', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
    });
    breaker.settled(refused);
    breaker.settled(new Error('Connection terminated unexpectedly'));
    expect(breaker.refusal()).toBeUndefined();
    jest.advanceTimersByTime(10_000);
    expect(probes).toHaveLength(0);
  });

  it('probes at once, then every retryMs after a probe ends, one at a time, until the server answers', async () => {
    breaker.settled(hung());
    breaker.settled(hung()); // another query in flight: still one probe
    jest.advanceTimersByTime(0);
    expect(probes).toHaveLength(1);
    jest.advanceTimersByTime(5000); // the probe waits its own timeouts: no second one meanwhile
    expect(probes).toHaveLength(1);
    breaker.settled(hung()); // the probe failed
    probes[0]?.end();
    await settle();
    expect(breaker.refusal()).toBeInstanceOf(DatabaseOutOfReachError);
    jest.advanceTimersByTime(999);
    expect(probes).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(probes).toHaveLength(2);
    breaker.settled(undefined); // the probe was answered
    probes[1]?.end();
    await settle();
    expect([breaker.refusal(), breaker.refusal()]).toEqual([undefined, undefined]);
    jest.advanceTimersByTime(10_000);
    expect(probes).toHaveLength(2);
  });

  it('is closed by an answer to a query that was in flight, and probes no more', () => {
    breaker.settled(hung());
    breaker.settled(undefined);
    expect(breaker.refusal()).toBeUndefined();
    jest.advanceTimersByTime(10_000);
    expect(probes).toHaveLength(0);
  });

  it('is closed by an error the server sent: a statement it cancelled proves it reachable', () => {
    breaker.settled(serverError('57014'));
    expect(breaker.refusal()).toBeUndefined();
    breaker.settled(hung());
    breaker.settled(serverError('23505')); // a query from before the hang, answered late
    expect(breaker.refusal()).toBeUndefined();
  });

  it('is not opened by a failure that says nothing of reach (a bug of the caller)', () => {
    breaker.settled(new TypeError('values must be an array'));
    expect(breaker.refusal()).toBeUndefined();
  });

  it('probes no more once stopped', () => {
    breaker.settled(hung());
    breaker.stop();
    jest.advanceTimersByTime(10_000);
    expect(probes).toHaveLength(0);
  });
});
