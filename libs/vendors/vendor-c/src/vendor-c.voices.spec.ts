import { vendorC } from './vendor-c.definition';
import {
  vendorCCategory,
  vendorCNextPageToken,
  vendorCVoice,
  vendorCVoicePagePath,
  vendorCVoices,
} from './vendor-c.voices';

function raw(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    voice_id: 'v1',
    name: 'Aurelle',
    category: 'premade',
    labels: { gender: 'female', accent: 'american', age: 'young', language: 'en' },
    description: 'A voice',
    preview_url: 'https://previews.vendor-c.invalid/v1.mp3',
    verified_languages: [{ language: 'en' }, { language: 'es' }, { language: 'fr' }],
    sharing: null,
    is_owner: false,
    fine_tuning: { state: {}, language: 'en' },
    ...fields,
  };
}

describe('vendor_c voices', () => {
  it('maps a vendor Voice: every model, own language then verified ones, labels, preview, object as received', () => {
    const object = raw();
    expect(vendorCVoice(object)).toEqual({
      id: 'v1',
      name: 'Aurelle',
      provider: 'vendor_c',
      models: vendorC.catalogue.models.map((m) => m.id),
      languages: ['en', 'es', 'fr'],
      gender: 'female',
      accent: 'american',
      age: 'young',
      description: 'A voice',
      preview_url: 'https://previews.vendor-c.invalid/v1.mp3',
      category: 'builtin',
      provider_data: object,
    });
  });

  it.each([
    [{ category: 'premade' }, 'builtin'],
    [{ category: 'cloned', is_owner: true }, 'cloned'],
    [{ category: 'professional', is_owner: true }, 'cloned'],
    [{ category: 'generated', is_owner: true }, 'custom'],
    [{ category: 'professional', is_owner: false, sharing: { status: 'copied' } }, 'library'],
    [{ category: 'cloned', is_owner: false }, 'library'],
  ])('%j is %s', (fields, category) => {
    expect(vendorCCategory(raw(fields))).toBe(category);
  });

  it('leaves out a professional clone whose fine-tuning has not finished', () => {
    const training = raw({
      category: 'professional',
      is_owner: true,
      fine_tuning: { state: { c_model_3: 'fine_tuning' } },
    });
    const trained = raw({
      category: 'professional',
      is_owner: true,
      fine_tuning: { state: { c_model_3: 'fine_tuned' } },
    });
    expect(vendorCVoice(training)).toBeNull();
    expect(vendorCVoice(trained)).not.toBeNull();
  });

  it('joins every page and keeps every voice for any model filter', () => {
    const pages = [{ voices: [raw(), raw({ voice_id: 'v2' })] }, { voices: [raw({ voice_id: 'v3' })] }];
    expect(vendorCVoices(pages).map((v) => v.id)).toEqual(['v1', 'v2', 'v3']);
    expect(vendorCVoices(pages, 'c_model_9')).toHaveLength(3);
  });

  it('asks pages at the largest size and follows next_page_token while has_more', () => {
    expect(vendorCVoicePagePath(null)).toBe('/v2/voices?page_size=100');
    expect(vendorCVoicePagePath('abc')).toBe('/v2/voices?page_size=100&next_page_token=abc');
    expect(vendorCNextPageToken({ has_more: true, next_page_token: 'abc' })).toBe('abc');
    expect(vendorCNextPageToken({ has_more: false, next_page_token: 'abc' })).toBeNull();
    expect(vendorCNextPageToken({ has_more: true, next_page_token: null })).toBeNull();
  });
});
