import {
  catalogueVoices,
  defaultLanguageOf,
  defaultSampleRateFor,
  findModel,
  findOption,
  isDialogueModel,
  isRestOnly,
  optionDefaultAt,
  optionRule,
  optionsForModel,
  optionValuesAt,
  sampleRatesFor,
} from './catalogue.queries';
import { testVendor } from './test-vendor.fixture';

const def = testVendor();

describe('catalogue queries', () => {
  it('finds models and options by id and name', () => {
    expect(findModel(def, 'c_model_2')?.id).toBe('c_model_2');
    expect(findModel(def, 'c_model_3')).toBeUndefined();
    expect(findOption(def, 'tempo')?.type).toBe('number');
    expect(findOption(def, 'pitch')).toBeUndefined();
  });

  it('gives an empty rule for an option without one', () => {
    expect(optionRule(def, 'tempo')).toEqual({});
    expect(optionRule(def, 'bitrate').formats).toEqual(['mp3']);
  });

  it('lists a model-bound option only for its models', () => {
    expect(optionsForModel(def, 'c_model_1').map((o) => o.name)).toEqual(['bitrate', 'rate', 'locators']);
    expect(optionsForModel(def, 'c_model_2').map((o) => o.name)).toEqual([
      'bitrate',
      'tempo',
      'rate',
      'locators',
    ]);
  });

  it('knows dialogue models', () => {
    expect(isDialogueModel(def, 'c_model_2')).toBe(true);
    expect(isDialogueModel(def, 'c_model_1')).toBe(false);
  });

  it('defaults the language to en only for optional-default-en vendors', () => {
    expect(defaultLanguageOf(def)).toBeNull();
    expect(defaultLanguageOf({ ...def, language: 'optional-default-en' })).toBe('en');
    expect(defaultLanguageOf({ ...def, language: 'required' })).toBeNull();
  });

  it('narrows rates by format and surface', () => {
    expect(sampleRatesFor(def, 'pcm', 'stream')).toEqual([8000, 16000, 24000]);
    expect(sampleRatesFor(def, 'pcm', 'speech')).toEqual([8000, 16000, 24000, 44100]);
    expect(sampleRatesFor(def, 'mp3', 'stream')).toEqual([24000]);
    expect(sampleRatesFor(def, 'mp3', 'speech')).toEqual([24000, 44100]);
    expect(sampleRatesFor(def, 'mulaw', 'speech')).toEqual([8000]);
    expect(sampleRatesFor(def, 'aac', 'speech')).toEqual([]); // not offered at all
  });

  it('defaults the rate to 24000 unless the format says otherwise or lacks it', () => {
    expect(defaultSampleRateFor(def, 'pcm', 'speech')).toBe(24000);
    expect(defaultSampleRateFor(def, 'mulaw', 'speech')).toBe(8000);
    expect(defaultSampleRateFor(def, 'aac', 'speech')).toBeNull();
    const no24k = { ...def, catalogue: { ...def.catalogue, sample_rates: [8000, 16000] as const } };
    expect(defaultSampleRateFor(no24k, 'pcm', 'stream')).toBe(8000);
  });

  it('marks speech-only rates and REST-only formats', () => {
    expect(isRestOnly(def, 'pcm', 44100)).toBe(true);
    expect(isRestOnly(def, 'pcm', 24000)).toBe(false);
    expect(isRestOnly(def, 'mulaw', 8000)).toBe(true);
  });

  it('resolves per-rate values and defaults, falling back to the Option', () => {
    expect(optionValuesAt(def, 'bitrate', 24000)).toEqual(['48k']);
    expect(optionValuesAt(def, 'bitrate', 16000)).toEqual(['32k', '48k', '128k']);
    expect(optionValuesAt(def, 'tempo', 24000)).toBeNull();
    expect(optionDefaultAt(def, 'bitrate', 24000)).toBe('48k');
    expect(optionDefaultAt(def, 'bitrate', 44100)).toBe('128k');
    expect(optionDefaultAt(def, 'nope', 44100)).toBeUndefined();
  });

  it('filters catalogue voices by model, and is empty for live-listed vendors', () => {
    expect(catalogueVoices(def).map((v) => v.id)).toEqual(['one', 'two', 'three']);
    expect(catalogueVoices(def, 'c_model_2').map((v) => v.id)).toEqual(['three']);
    expect(catalogueVoices({ ...def, voices: null })).toEqual([]);
  });
});
