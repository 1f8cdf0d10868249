import { vendorEModelLists, vendorEVoice, vendorEVoices } from './vendor-e.voices';

function entry(model: string, voice: string, lang = 'en', extra: Record<string, unknown> = {}) {
  return {
    name: voice,
    canonical_name: `${model}-${voice}-${lang}`,
    architecture: model,
    languages: [lang],
    version: '1',
    uuid: `${model}-${voice}`,
    metadata: {
      accent: 'American',
      age: 'Adult',
      sample: `https://static.vendor-e.invalid/samples/${model}-${voice}-${lang}.wav`,
      tags: ['feminine', 'warm'],
    },
    ...extra,
  };
}

describe('vendor_e voices', () => {
  it('takes the id as the vendor name with the model id removed, the sample as preview', () => {
    const object = entry('e_model_1', 'orla');
    expect(vendorEVoice(object)).toEqual({
      id: 'orla-en',
      name: 'orla',
      provider: 'vendor_e',
      models: ['e_model_1'],
      languages: ['en'],
      gender: 'female',
      accent: 'American',
      age: 'Adult',
      description: null,
      preview_url: 'https://static.vendor-e.invalid/samples/e_model_1-orla-en.wav',
      category: 'builtin',
      provider_data: object,
    });
  });

  it('skips an entry whose name does not start with its model id', () => {
    expect(vendorEVoice({ ...entry('e_model_1', 'orla'), canonical_name: 'other-orla-en' })).toBeNull();
  });

  it('lists a voice once with every model, leaving out models the catalogue lacks', () => {
    const v1 = { tts: [entry('e_model_1', 'orla'), entry('e_model_2', 'orla'), entry('e_model_0', 'old')] };
    const v2 = { tts: [entry('e_model_3', 'orla'), entry('e_model_3', 'wren')] };
    const voices = vendorEVoices([v1, v2]);
    expect(voices.map((v) => [v.id, v.models])).toEqual([
      ['orla-en', ['e_model_1', 'e_model_2', 'e_model_3']],
      ['wren-en', ['e_model_3']],
    ]);
    const forThree = vendorEVoices([v1, v2], 'e_model_3');
    expect(forThree.map((v) => v.id)).toEqual(['orla-en', 'wren-en']);
    expect(forThree[0]?.preview_url).toContain('e_model_3-orla-en');
  });

  it("reads only the asked model's generation list", () => {
    expect(vendorEModelLists()).toEqual(['/v1/models', '/v2/models']);
    expect(vendorEModelLists('e_model_2')).toEqual(['/v1/models']);
    expect(vendorEModelLists('e_model_3')).toEqual(['/v2/models']);
  });
});
