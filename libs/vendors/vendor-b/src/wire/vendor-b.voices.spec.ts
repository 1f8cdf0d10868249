import { vendorBVoices } from './vendor-b.voices';

const LIST = {
  voices: [
    {
      voice_id: 'b_voice_hi_f1',
      name: 'Ilvara',
      language: 'hi',
      languages: ['hi'],
      gender: 'female',
      model: 'b_model_1',
    },
    {
      voice_id: 'b2_voice_m1',
      name: 'Dhruven',
      language: 'hi',
      languages: ['hi', 'en-in'],
      gender: 'male',
      model: 'b_model_2',
    },
    { voice_id: 'b3_voice_f1', name: 'Preview', language: 'hi', gender: 'female', model: 'b_model_3' },
    { name: 'no id', model: 'b_model_1' },
  ],
};

describe('vendorBVoices', () => {
  it('maps each voice to its one model, its languages and gender, as a stock voice with the object as received', () => {
    const [first, second, ...rest] = vendorBVoices(LIST);
    expect(rest).toEqual([]);
    expect(first).toEqual({
      id: 'b_voice_hi_f1',
      name: 'Ilvara',
      provider: 'vendor_b',
      models: ['b_model_1'],
      languages: ['hi'],
      gender: 'female',
      accent: null,
      age: null,
      description: null,
      preview_url: null,
      category: 'builtin',
      provider_data: LIST.voices[0],
    });
    expect(second).toMatchObject({ models: ['b_model_2'], languages: ['hi', 'en-in'], gender: 'male' });
  });

  it('leaves out voices of a model the catalogue lacks and filters by model', () => {
    expect(vendorBVoices(LIST).map((v) => v.id)).not.toContain('b3_voice_f1');
    expect(vendorBVoices(LIST, 'b_model_2').map((v) => v.id)).toEqual(['b2_voice_m1']);
  });

  it('falls back to the single language when no list is given', () => {
    const [voice] = vendorBVoices({ voices: [{ voice_id: 'x', language: 'ta', model: 'b_model_1' }] });
    expect(voice).toMatchObject({ name: 'x', languages: ['ta'], gender: null });
  });
});
