import type { SynthSettings } from '@router/contracts';
import { parseVendorIRequest, vendorIRequest } from './vendor-i.requests';
import { vendorISocketSettings } from './vendor-i.settings';

const base = {
  model_id: 'i_model_2',
  transcript: 'Good morning.',
  voice: { mode: 'id', id: 'v1' },
  output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
  context_id: 'c1',
};

/** A socket message as the mirror reads it: the vendor's parser, then the router's settings. */
function settingsOf(fields: Record<string, unknown>): SynthSettings {
  const message = { ...base, ...fields };
  const parsed = parseVendorIRequest(message, true, () => true);
  if (!parsed.ok) throw new Error(`refused: ${parsed.problem.message}`);
  return vendorISocketSettings(message, parsed.request);
}

describe('vendorISocketSettings: language and locale', () => {
  it('keys a language of the catalogue as the router language, the same whether it came as language or locale', () => {
    const spoken = settingsOf({ language: 'fr' });
    expect(spoken).toMatchObject({ language: 'fr' });
    expect(spoken.options).not.toHaveProperty('language');
    expect(settingsOf({ locale: 'fr' })).toEqual(spoken);
    expect(vendorIRequest(spoken, 'x').body['language']).toBe('fr');
  });

  it.each([
    { field: 'language', code: 'en-GB', language: 'en' },
    { field: 'locale', code: 'en-GB', language: 'en' },
    { field: 'locale', code: 'fr-CA', language: 'fr' },
  ])(
    'takes the regional $field $code: the vendor is sent $code, keyed apart from $language',
    ({ field, code, language }) => {
      const regional = settingsOf({ [field]: code });
      expect(regional).toMatchObject({ language, options: { language: code } });
      const body = vendorIRequest(regional, 'x').body;
      expect(body['language']).toBe(code);
      expect(body).not.toHaveProperty('locale');
      // Equal messages give equal settings (one entry); the bare language gives other settings (another).
      expect(settingsOf({ [field]: code })).toEqual(regional);
      expect(settingsOf({ [field]: language })).not.toEqual(regional);
      expect(settingsOf({ language: code })).toEqual(regional);
    },
  );

  it('leaves a message without a language to the default, en, with no language option', () => {
    const settings = settingsOf({});
    expect(settings.language).toBe('en');
    expect(settings.options).not.toHaveProperty('language');
  });

  it("refuses only what the vendor's parser refuses: language and locale together, an unknown language", () => {
    for (const fields of [{ language: 'en', locale: 'en-GB' }, { locale: 'xx-GB' }, { language: 'xx' }]) {
      expect(parseVendorIRequest({ ...base, ...fields }, true, () => true)).toMatchObject({
        ok: false,
        problem: { status: 400 },
      });
    }
  });
});
