import { llmDeltas, sentence } from './load-plan';

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
