import type { SynthSettings } from '@router/contracts';
import { vendorCStoredPath, vendorCStoredReferences } from './vendor-c.stored-settings';

const base: SynthSettings = {
  vendor: 'vendor_c',
  model: 'c_model_3',
  voice: 'voice1',
  language: null,
  speed: null,
  sampleRate: 24000,
  format: 'pcm',
  options: { voice_settings: null, pronunciation_dictionary_locators: null },
};

describe('vendor_c stored settings', () => {
  it("names the voice's stored settings when voice_settings is null or left out", () => {
    expect(vendorCStoredReferences(base)).toEqual([{ name: 'voice-settings/voice1', kind: 'fingerprint' }]);
    expect(vendorCStoredReferences({ ...base, options: {} })).toHaveLength(1);
    expect(
      vendorCStoredReferences({
        ...base,
        options: { voice_settings: { stability: 0.5, similarity_boost: 0.5 } },
      }),
    ).toEqual([]);
  });

  it("names the voice's stored settings when voice_settings leave a required field to them", () => {
    const withSettings = (model: string, voiceSettings: unknown) =>
      vendorCStoredReferences({ ...base, model, options: { voice_settings: voiceSettings } });
    const stored = [{ name: 'voice-settings/voice1', kind: 'fingerprint' }];
    expect(withSettings('c_model_3', {})).toEqual(stored);
    expect(withSettings('c_model_3', { speed: 1.1 })).toEqual(stored);
    expect(withSettings('c_model_3', { stability: 0.5, similarity_boost: null })).toEqual(stored);
    expect(withSettings('c_model_3', { stability: 0.5, similarity_boost: 0.5, speed: 1.1 })).toEqual([]);
    // A dialogue model takes stability only: with it, nothing is left to the stored settings.
    expect(withSettings('c_model_8', {})).toEqual(stored);
    expect(withSettings('c_model_8', { stability: 0.5 })).toEqual([]);
  });

  it('names each dictionary without a version, not one with a version', () => {
    const references = vendorCStoredReferences({
      ...base,
      options: {
        voice_settings: { stability: 0.5, similarity_boost: 0.5 },
        pronunciation_dictionary_locators: [
          { pronunciation_dictionary_id: 'd1' },
          { pronunciation_dictionary_id: 'd2', version_id: 'v7' },
          { pronunciation_dictionary_id: 'd3', version_id: null },
        ],
      },
    });
    expect(references).toEqual([
      { name: 'dictionary/d1', kind: 'fingerprint' },
      { name: 'dictionary/d3', kind: 'fingerprint' },
    ]);
  });

  it('reads each where the vendor keeps it', () => {
    expect(vendorCStoredPath({ name: 'voice-settings/a b', kind: 'fingerprint' })).toEqual({
      path: '/v1/voices/a%20b/settings',
      what: 'settings',
    });
    expect(vendorCStoredPath({ name: 'dictionary/d1', kind: 'fingerprint' })?.path).toBe(
      '/v1/pronunciation-dictionaries/d1',
    );
    expect(vendorCStoredPath({ name: 'other', kind: 'fingerprint' })).toBeUndefined();
  });
});
