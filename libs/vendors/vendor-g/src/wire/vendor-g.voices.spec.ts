import { vendorGClonedPagePath, vendorGNextCursor, vendorGVoices } from './vendor-g.voices';

const LANGS = (codes: string[]) => codes.map((code) => ({ code, name: code }));

const TTS = {
  models: [
    {
      id: 'g_model_1',
      languages: LANGS(['en', 'de']),
      voices: [{ id: 'Maren', description: 'Warm', gender: 'female' }],
    },
    {
      id: 'g_model_3',
      languages: LANGS(['en', 'fr']),
      voices: [
        { id: 'Maren', description: 'Warm', gender: 'female' },
        { id: 'Vesna', description: 'Crisp', gender: 'female' },
      ],
    },
    {
      id: 'g_model_beta',
      languages: LANGS(['en']),
      voices: [{ id: 'Zephyr', description: 'Beta', gender: 'male' }],
    },
  ],
};

function clone(id: string, statuses: Record<string, string>) {
  return {
    id,
    name: `Clone ${id}`,
    filename: 'x.wav',
    created_at: '2026-01-01T00:00:00Z',
    models: Object.entries(statuses).map(([model, status]) => ({ model, status })),
  };
}

describe('vendorGVoices', () => {
  const pages = [
    {
      voices: [
        clone('c1', { g_model_1: 'ready', g_model_3: 'processing' }),
        clone('c2', { g_model_1: 'failed' }),
      ],
    },
    { voices: [clone('c3', { g_model_beta: 'ready' }), clone('c4', { g_model_3: 'ready' })] },
  ];

  it('joins a built-in voice across its models with their languages', () => {
    const maren = vendorGVoices(TTS, pages).find((v) => v.id === 'Maren');
    expect(maren).toMatchObject({
      name: 'Maren',
      provider: 'vendor_g',
      models: ['g_model_1', 'g_model_3'],
      languages: ['en', 'de', 'fr'],
      gender: 'female',
      description: 'Warm',
      category: 'builtin',
      provider_data: { id: 'Maren', description: 'Warm', gender: 'female' },
    });
  });

  it('lists clones only with the router models they are ready for', () => {
    const voices = vendorGVoices(TTS, pages);
    expect(voices.map((v) => v.id)).toEqual(['Maren', 'Vesna', 'c1', 'c4']);
    expect(voices.find((v) => v.id === 'c1')).toMatchObject({
      category: 'cloned',
      models: ['g_model_1'],
      languages: ['en', 'de'],
      name: 'Clone c1',
    });
  });

  it('filters by model', () => {
    expect(vendorGVoices(TTS, pages, 'g_model_1').map((v) => v.id)).toEqual(['Maren', 'c1']);
    expect(vendorGVoices(TTS, pages, 'g_model_2')).toEqual([]);
  });

  it('pages by cursor at the largest limit', () => {
    expect(vendorGClonedPagePath(null)).toBe('/v1/voices?limit=100');
    expect(vendorGClonedPagePath('b2Zm')).toBe('/v1/voices?limit=100&cursor=b2Zm');
    expect(vendorGNextCursor({ next_page_cursor: 'x' })).toBe('x');
    expect(vendorGNextCursor({ next_page_cursor: null })).toBeNull();
  });
});
