import { FaultBook, faultProblem } from './faults';

const call = (
  overrides: Partial<{ vendor: string; keyId: string; endpoint: string; text: string }> = {},
) => ({
  vendor: 'vendor_a',
  keyId: 'k1',
  endpoint: 'rest',
  text: 'hello world',
  ...overrides,
});

describe('FaultBook', () => {
  it('fires once by default, then lets calls through', () => {
    const book = new FaultBook();
    book.add({ vendor: 'vendor_a', kind: 'error' });
    expect(book.take(call())?.kind).toBe('error');
    expect(book.take(call())).toBeUndefined();
    expect(book.list()[0]).toMatchObject({ matched: 2, fired: 1 });
  });

  it('skips calls that miss a filter without counting them', () => {
    const book = new FaultBook();
    book.add({ vendor: 'vendor_a', keyId: 'k2', endpoint: 'ws', textIncludes: 'boom', kind: 'cut', nth: 2 });
    expect(book.take(call({ keyId: 'k2', endpoint: 'ws', text: 'boom 1' }))).toBeUndefined();
    expect(book.take(call({ keyId: 'k1', endpoint: 'ws', text: 'boom' }))).toBeUndefined();
    expect(book.take(call({ keyId: 'k2', endpoint: 'rest', text: 'boom' }))).toBeUndefined();
    expect(
      book.take(call({ vendor: 'vendor_b', keyId: 'k2', endpoint: 'ws', text: 'boom' })),
    ).toBeUndefined();
    expect(book.take(call({ keyId: 'k2', endpoint: 'ws', text: 'quiet' }))).toBeUndefined();
    expect(book.take(call({ keyId: 'k2', endpoint: 'ws', text: 'boom 2' }))?.kind).toBe('cut');
  });

  it('fires `times` times, or always until removed', () => {
    const book = new FaultBook();
    book.add({ vendor: 'vendor_a', kind: 'stall', times: 2 });
    const always = book.add({ vendor: 'vendor_b', kind: 'error', times: 'always' });
    expect([1, 2, 3].map(() => book.take(call())?.kind)).toEqual(['stall', 'stall', undefined]);
    expect([1, 2, 3].map(() => book.take(call({ vendor: 'vendor_b' }))?.kind)).toEqual([
      'error',
      'error',
      'error',
    ]);
    expect(book.remove(always.id)).toBe(true);
    expect(book.take(call({ vendor: 'vendor_b' }))).toBeUndefined();
  });

  it('checks specs', () => {
    expect(faultProblem({ vendor: 'vendor_a', kind: 'error', status: 503, afterBytes: 10 })).toBeNull();
    expect(faultProblem({ vendor: 'vendor_a', kind: 'stall', stallMs: null })).toBeNull();
    expect(faultProblem({ vendor: 'vendor_a', kind: 'end', afterBytes: 10 })).toBeNull();
    expect(faultProblem({ vendor: 'vendor_a', kind: 'nope' })).toMatch(/kind/);
    expect(faultProblem({ vendor: 'vendor_a', kind: 'error', nth: 0 })).toMatch(/nth/);
    expect(faultProblem({ vendor: 'vendor_a', kind: 'error', times: 0 })).toMatch(/times/);
    expect(faultProblem({ vendor: 'vendor_a', kind: 'error', extra: 1 })).toMatch(/extra/);
  });
});
