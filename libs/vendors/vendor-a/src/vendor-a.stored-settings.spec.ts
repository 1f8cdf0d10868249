import type { SynthSettings } from '@router/contracts';
import { vendorAStoredPath, vendorAStoredReferences } from './vendor-a.stored-settings';

const base: SynthSettings = {
  vendor: 'vendor_a',
  model: 'a_model_2',
  voice: 'vanshira',
  language: 'hi-IN',
  speed: 1,
  sampleRate: 24000,
  format: 'pcm',
  options: { dict_id: null },
};

describe('vendor_a stored settings', () => {
  it('names a dict_id as a dictionary read once before caching', () => {
    expect(vendorAStoredReferences(base)).toEqual([]);
    const references = vendorAStoredReferences({ ...base, options: { dict_id: 'my dict' } });
    expect(references).toEqual([{ name: 'dictionary/my dict', kind: 'first-read' }]);
    expect(vendorAStoredPath(references[0])).toBe('/pronunciation-dictionaries/my%20dict');
  });
});
