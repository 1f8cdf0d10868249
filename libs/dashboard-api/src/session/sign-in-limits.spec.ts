import { AttemptCounter, SignInLimiter, SignInRefused } from './sign-in-limits';

describe('AttemptCounter', () => {
  let now = 0;
  const clock = () => now;

  it('allows `limit` attempts a window, then says how many seconds are left until it ends', () => {
    now = 1_000;
    const counter = new AttemptCounter(3, 60_000, clock);
    expect([counter.attempt('a'), counter.attempt('a'), counter.attempt('a')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    now += 20_500;
    expect(counter.attempt('a')).toBe(40);
    // Another name has its own window.
    expect(counter.attempt('b')).toBeUndefined();
    // Refused attempts do not push the window's end.
    now += 39_499;
    expect(counter.attempt('a')).toBe(1);
    now += 1;
    expect(counter.attempt('a')).toBeUndefined();
  });

  it('stays bounded: past its size, what expired goes first, then the oldest', () => {
    now = 0;
    const counter = new AttemptCounter(1, 10_000, clock, 2);
    counter.attempt('old');
    now = 5_000;
    counter.attempt('newer');
    counter.attempt('newest'); // full: 'old' (the oldest, still counting) is forgotten
    expect(counter.attempt('old')).toBeUndefined();
    // 'newer' was forgotten to make room for 'old' again; 'newest' still counts.
    expect(counter.attempt('newest')).toBe(10);
    expect(counter.attempt('newer')).toBeUndefined();
  });
});

describe('SignInLimiter', () => {
  const limiter = () => new SignInLimiter({ perAddress: 2, perClient: 3, windowMs: 60_000 }, () => 0);

  it('refuses an address past its limit from any client, as rate_limited with the wait', () => {
    const limits = limiter();
    limits.admit('ana@example.com', '10.0.0.1');
    limits.admit('ana@example.com', '10.0.0.2');
    let refusal: unknown;
    try {
      limits.admit('ana@example.com', '10.0.0.3');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(SignInRefused);
    expect(refusal).toMatchObject({ code: 'rate_limited', status: 429, retryAfterSeconds: 60 });
    expect((refusal as Error).message).toBe('Too many sign-in attempts: try again in 60 seconds.');
    // Another address is still let in.
    expect(() => limits.admit('bo@example.com', '10.0.0.3')).not.toThrow();
  });

  it('refuses a client past its limit whatever address it tries', () => {
    const limits = limiter();
    for (const who of ['a@x.io', 'b@x.io', 'c@x.io']) limits.admit(who, '10.0.0.9');
    expect(() => limits.admit('d@x.io', '10.0.0.9')).toThrow(SignInRefused);
    expect(() => limits.admit('d@x.io', '10.0.0.8')).not.toThrow();
  });

  it('clears an address once it signs in', () => {
    const limits = limiter();
    limits.admit('ana@example.com', '10.0.0.1');
    limits.admit('ana@example.com', '10.0.0.2');
    limits.succeeded('ana@example.com');
    expect(() => limits.admit('ana@example.com', '10.0.0.3')).not.toThrow();
  });
});
