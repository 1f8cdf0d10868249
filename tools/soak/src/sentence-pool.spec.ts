import { splitText } from '@router/text';
import { vendorA } from '@router/vendor-a';
import { byLength, sentencePool } from './sentence-pool';

describe('sentencePool', () => {
  const pool = sentencePool(200);

  it('gives each sentence its own length, so a vendor call is traced to its sentence by length', () => {
    const lengths = byLength(pool);
    expect(lengths.size).toBe(200);
    expect(lengths.get(Array.from(pool[7]).length)).toBe(pool[7]);
  });

  it('makes sentences that vendor_a splits into exactly one piece each, so a reply is one take', () => {
    for (const sentence of pool)
      expect(splitText(sentence, 'router', vendorA.maxInputChars)).toEqual([sentence]);
  });

  it('refuses a pool with two sentences of one length', () => {
    expect(() => byLength(['Same one.', 'Same two.'])).toThrow('two sentences of the pool have 9 characters');
  });
});
