import { testVendor } from './test-vendor.fixture';
import {
  catalogueVoiceList,
  mergeVoices,
  readAllPages,
  speakableVoices,
  voiceGender,
  type Voice,
} from './voice.types';

function voice(id: string, models: string[], extra: Partial<Voice> = {}): Voice {
  return {
    id,
    name: id,
    provider: 'vendor_a',
    models,
    languages: [],
    gender: null,
    accent: null,
    age: null,
    description: null,
    preview_url: null,
    category: 'builtin',
    provider_data: null,
    ...extra,
  };
}

describe('voice lists', () => {
  const def = testVendor();
  const [first, second] = def.catalogue.models.map((m) => m.id) as [string, string];

  it('keeps only voices of catalogue models, narrowing their models in catalogue order', () => {
    const voices = speakableVoices(def, [
      voice('both', [second, 'beta_model', first]),
      voice('beta-only', ['beta_model']),
      voice('none', []),
    ]);
    expect(voices.map((v) => [v.id, v.models])).toEqual([['both', [first, second]]]);
  });

  it('filters by model', () => {
    const voices = [voice('a', [first]), voice('b', [second]), voice('ab', [first, second])];
    expect(speakableVoices(def, voices, second).map((v) => v.id)).toEqual(['b', 'ab']);
  });

  it('merges a voice listed under several models, taking its fields from the asked model', () => {
    const listed = [
      voice('v', [first], { languages: ['en'], preview_url: 'one', provider_data: { n: 1 } }),
      voice('v', [second], { languages: ['en', 'de'], preview_url: 'two', provider_data: { n: 2 } }),
      voice('w', [second]),
    ];
    const merged = mergeVoices(listed);
    expect(merged.map((v) => v.id)).toEqual(['v', 'w']);
    expect(merged[0]).toMatchObject({ models: [first, second], languages: ['en', 'de'], preview_url: 'one' });
    expect(mergeVoices(listed, second)[0]).toMatchObject({ preview_url: 'two', provider_data: { n: 2 } });
  });

  it('makes catalogue voices builtin with nothing unknown guessed', () => {
    const voices = catalogueVoiceList(def);
    expect(voices.length).toBeGreaterThan(0);
    expect(voices.length).toBe(def.voices?.length);
    for (const v of voices) {
      expect(v).toMatchObject({
        provider: def.id,
        category: 'builtin',
        accent: null,
        age: null,
        description: null,
        preview_url: null,
        provider_data: null,
      });
    }
  });

  it('reads the spec genders and the vendor words for them', () => {
    expect(['Male', 'feminine', 'neutral', 'other', 3, null].map(voiceGender)).toEqual([
      'male',
      'female',
      'neutral',
      null,
      null,
      null,
    ]);
  });
});

describe('readAllPages', () => {
  it('follows tokens until there is none', async () => {
    const pages: Record<string, { items: number[]; next: string | null }> = {
      start: { items: [1, 2], next: 't1' },
      t1: { items: [3], next: 't2' },
      t2: { items: [4], next: null },
    };
    const asked: (string | null)[] = [];
    const read = await readAllPages(
      'vendor_c',
      (token) => {
        asked.push(token);
        return Promise.resolve(pages[token ?? 'start']);
      },
      (page) => page.next,
    );
    expect(asked).toEqual([null, 't1', 't2']);
    expect(read.flatMap((p) => p.items)).toEqual([1, 2, 3, 4]);
  });

  it('refuses a vendor that repeats a token instead of looping', async () => {
    await expect(
      readAllPages(
        'vendor_g',
        () => Promise.resolve({}),
        () => 'same',
      ),
    ).rejects.toMatchObject({ code: 'provider_unavailable' });
  });
});
