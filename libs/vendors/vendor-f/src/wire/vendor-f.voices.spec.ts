import { vendorFVoices } from './vendor-f.voices';

describe('vendorFVoices', () => {
  it('lists built-ins as builtin and custom voices as cloned, all for the one model', () => {
    const list = {
      voices: [
        { voice_id: 'aster', name: 'Aster', description: 'Bright', gender: 'female', type: 'builtin' },
        { id: 'custom-1', name: 'Mine', description: 'Cloned', gender: null, type: 'custom' },
        { name: 'no id' },
      ],
    };
    const voices = vendorFVoices(list);
    expect(voices).toEqual([
      {
        id: 'aster',
        name: 'Aster',
        provider: 'vendor_f',
        models: ['f_model_1'],
        languages: [],
        gender: 'female',
        accent: null,
        age: null,
        description: 'Bright',
        preview_url: null,
        category: 'builtin',
        provider_data: list.voices[0],
      },
      expect.objectContaining({ id: 'custom-1', category: 'cloned', gender: null }),
    ]);
    expect(vendorFVoices(list, 'f_model_1')).toHaveLength(2);
  });
});
