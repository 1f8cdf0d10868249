// eslint-disable-next-line @typescript-eslint/no-require-imports
const { splitBySeconds } = require('./e2e-sequencer.js') as {
  splitBySeconds: (paths: string[], recorded: Record<string, number>, shardCount: number) => string[][];
};

describe('splitBySeconds', () => {
  const recorded = { a: 100, b: 90, c: 40, d: 30, e: 20, f: 10 };

  it('puts every path in exactly one shard', () => {
    const shards = splitBySeconds(Object.keys(recorded), recorded, 2);
    expect(shards.flat().sort()).toEqual(Object.keys(recorded).sort());
  });

  it('gives the shards about the same seconds, the two longest apart', () => {
    const shards = splitBySeconds(Object.keys(recorded), recorded, 2);
    const [first = 0, second = 0] = shards.map((paths) =>
      paths.reduce((sum, path) => sum + recorded[path as 'a'], 0),
    );
    expect(Math.abs(first - second)).toBeLessThanOrEqual(10);
    expect(shards.findIndex((paths) => paths.includes('a'))).not.toBe(
      shards.findIndex((paths) => paths.includes('b')),
    );
  });

  it('weighs a path missing from the record as the median one', () => {
    const shards = splitBySeconds(['a', 'new-1', 'new-2'], { a: 50, x: 10, y: 30, z: 20 }, 2);
    // Median 20 each: `a` alone on one shard, both new specs on the other.
    expect(shards).toEqual([['a'], ['new-1', 'new-2']]);
  });
});
