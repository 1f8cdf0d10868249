import { ConfigError } from '@router/config';
import { heapFlags } from './run-service';

describe('heapFlags', () => {
  it('lets the old generation grow to 4× what survived by default', () => {
    expect(heapFlags({})).toEqual(['--heap-growing-percent=300']);
  });

  it('takes the percentage from V8_HEAP_GROWING_PERCENT, and 0 keeps V8 policy', () => {
    expect(heapFlags({ V8_HEAP_GROWING_PERCENT: '150' })).toEqual(['--heap-growing-percent=150']);
    expect(heapFlags({ V8_HEAP_GROWING_PERCENT: '0' })).toEqual([]);
  });

  it('refuses a value that is not a whole percentage in range, naming the variable', () => {
    for (const value of ['-1', '1001', 'lots', '2.5']) {
      expect(() => heapFlags({ V8_HEAP_GROWING_PERCENT: value })).toThrow(ConfigError);
      expect(() => heapFlags({ V8_HEAP_GROWING_PERCENT: value })).toThrow(/V8_HEAP_GROWING_PERCENT/);
    }
  });
});
