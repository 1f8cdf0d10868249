import { llmDeltas, phaseOrder, sentence, type Variant } from './load-plan';

describe('llmDeltas', () => {
  it('splits a sentence into word tokens, its stop, and the next word that settles the stop', () => {
    const text = sentence('ab12', 'stm', 3);
    const deltas = llmDeltas(text);
    expect(deltas.before[0]).toBe('Benchmark');
    expect(deltas.before[1]).toBe(' run');
    expect(deltas.end).toBe('.');
    expect(deltas.next).toBe(' And');
    expect([...deltas.before, deltas.end].join('')).toBe(text);
  });

  it('refuses a sentence without a stop', () => {
    expect(() => llmDeltas('no stop here')).toThrow('must end with');
  });
});

describe('phaseOrder', () => {
  const variants: Variant[] = ['direct', 'proxy', 'chain', 'miss', 'uncached', 'hot-hit', 'cold-hit'];

  it('issues every variant once per round, perVariant rounds', () => {
    const order = phaseOrder(variants, 300, 'interleaved-1');
    expect(order).toHaveLength(2100);
    for (let round = 0; round < 300; round++) {
      expect([...order.slice(round * 7, round * 7 + 7)].sort()).toEqual([...variants].sort());
    }
  });

  it('gives each variant every other variant as its predecessor about equally often', () => {
    const order = phaseOrder(variants, 300, 'interleaved-1');
    const follows = new Map<string, number>();
    for (let i = 1; i < order.length; i++) {
      if (order[i - 1] === order[i]) continue; // only across rounds
      const pair = `${order[i - 1]}>${order[i]}`;
      follows.set(pair, (follows.get(pair) ?? 0) + 1);
    }
    // ≈2,050 transitions between distinct variants over their 42 ordered pairs: ≈49 each.
    expect(follows.size).toBe(42);
    for (const count of follows.values()) {
      expect(count).toBeGreaterThan(25);
      expect(count).toBeLessThan(80);
    }
  });

  it('is the same for the same seed and differs for another', () => {
    expect(phaseOrder(variants, 20, 'a')).toEqual(phaseOrder(variants, 20, 'a'));
    expect(phaseOrder(variants, 20, 'a')).not.toEqual(phaseOrder(variants, 20, 'b'));
  });
});
