import { percentile, round, slope, summarize } from './stats';

describe('percentile (nearest rank)', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('answers a value that was observed, at the rank ceil(p/100 * n)', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([3, 7, 9], 50)).toBe(7);
  });

  it('clamps to the first sample at p = 0 and is NaN without samples', () => {
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('summarize', () => {
  it('sorts before ranking and reports mean, min and max', () => {
    const s = summarize([5, 1, 4, 2, 3]);
    expect(s).toEqual({ n: 5, p50: 3, p90: 5, p99: 5, mean: 3, min: 1, max: 5 });
  });

  it('leaves its input in place', () => {
    const samples = [3, 1, 2];
    summarize(samples);
    expect(samples).toEqual([3, 1, 2]);
  });
});

describe('round', () => {
  it('rounds to the given digits', () => {
    expect(round(1.23456)).toBe(1.23);
    expect(round(1.23456, 3)).toBe(1.235);
    expect(round(2.5, 0)).toBe(3);
  });
});

describe('slope', () => {
  it('fits a line through noisy points by least squares', () => {
    expect(slope([0, 1, 2, 3].map((x) => ({ x, y: 10 + 2 * x })))).toBe(2);
    expect(
      slope([
        { x: 0, y: 0 },
        { x: 1, y: 3 },
        { x: 2, y: 4 },
      ]),
    ).toBe(2);
  });

  it('is NaN without two distinct x', () => {
    expect(slope([{ x: 1, y: 1 }])).toBeNaN();
    expect(
      slope([
        { x: 1, y: 1 },
        { x: 1, y: 2 },
      ]),
    ).toBeNaN();
  });
});
