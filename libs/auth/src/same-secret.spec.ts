import { sameSecret } from './same-secret';

describe('sameSecret', () => {
  it('is true only for the same secret', () => {
    expect(sameSecret('rtr_same', 'rtr_same')).toBe(true);
    expect(sameSecret(Buffer.from('rtr_same'), 'rtr_same')).toBe(true);
    expect(sameSecret('rtr_samf', 'rtr_same')).toBe(false);
  });

  it('is false, and does not throw, for secrets of other lengths (empty ones included)', () => {
    expect(sameSecret('rtr_same_but_longer', 'rtr_same')).toBe(false);
    expect(sameSecret('', 'rtr_same')).toBe(false);
    expect(sameSecret('rtr_same', '')).toBe(false);
  });

  it('reads a string as UTF-8, so a secret with characters beyond ASCII compares whole', () => {
    expect(sameSecret('clé-é', 'clé-é')).toBe(true);
    expect(sameSecret('clé-é', 'clé-e')).toBe(false);
  });
});
