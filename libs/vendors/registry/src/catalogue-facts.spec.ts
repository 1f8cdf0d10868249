import { SPEC_CATALOGUE as TABLE, SPEC_VENDOR_A_LANGUAGES } from '@router/spec-facts';
import { getVendor, VENDORS } from './vendors.registry';

describe('per-vendor catalogue facts (spec table)', () => {
  it('covers every vendor', () => {
    expect(Object.keys(TABLE)).toEqual(VENDORS.map((v) => v.id));
  });

  describe.each(Object.entries(TABLE))('%s', (id, row) => {
    const cat = getVendor(id as keyof typeof TABLE).catalogue;

    it('has the formats of the table', () => {
      expect(cat.formats).toEqual(row.formats);
    });

    it('has the streaming sample rates of the table', () => {
      expect(cat.sample_rates).toEqual(row.sample_rates);
    });

    it('has the speech-endpoint sample rates of the table', () => {
      expect(cat.speech_sample_rates).toEqual(row.speech_sample_rates);
    });

    it('has the speed row of the table', () => {
      expect(cat.speed).toEqual(row.speed);
    });

    it('never lists flac or opus (always refused)', () => {
      expect(cat.formats).not.toContain('flac');
      expect(cat.formats).not.toContain('opus');
    });
  });
});

describe('speed when the client leaves it out', () => {
  it.each([
    ['vendor_a', 1.0],
    ['vendor_b', 1.0],
    ['vendor_c', null], // no top-level speed: voice_settings.speed
    ['vendor_d', 1.0],
    ['vendor_e', 1.0],
    ['vendor_f', 1.0],
    ['vendor_g', 1.0],
    ['vendor_h', 1.0],
    ['vendor_i', null], // speed is optional: nothing is sent
    ['vendor_j', null], // no speed: instructions instead
  ] as const)('%s uses %p', (id, expected) => {
    expect(getVendor(id).speedDefault).toBe(expected);
  });
});

describe('language rules for client settings', () => {
  it.each([
    ['vendor_a', 'required'],
    ['vendor_b', 'required'],
    ['vendor_g', 'required'],
    ['vendor_c', 'optional'],
    ['vendor_f', 'optional'],
    ['vendor_h', 'optional-default-en'],
    ['vendor_i', 'optional-default-en'],
    ['vendor_d', 'none'],
    ['vendor_e', 'none'],
    ['vendor_j', 'none'],
  ] as const)('%s: %s', (id, rule) => {
    expect(getVendor(id).language).toBe(rule);
  });

  it('every model of a vendor that takes a language lists its codes', () => {
    for (const vendor of VENDORS.filter((v) => v.language !== 'none')) {
      for (const model of vendor.catalogue.models) expect(model.languages.length).toBeGreaterThan(0);
    }
  });

  it('vendor_h and vendor_i list en on every model (their default)', () => {
    for (const id of ['vendor_h', 'vendor_i'] as const) {
      for (const model of getVendor(id).catalogue.models) expect(model.languages).toContain('en');
    }
  });
});

describe('vendor_a', () => {
  const vendor = getVendor('vendor_a');
  const LANGUAGES = SPEC_VENDOR_A_LANGUAGES;

  it('has two models, a_model_1 and a_model_2', () => {
    expect(vendor.catalogue.models.map((m) => m.id)).toEqual(['a_model_1', 'a_model_2']);
  });

  it('lists the 11 language codes on both models (od-IN, not or-IN)', () => {
    for (const model of vendor.catalogue.models) {
      expect([...model.languages].sort()).toEqual([...LANGUAGES].sort());
    }
  });

  it('a_model_1 lists 37 speakers, each with a gender, speaking every language of the model', () => {
    const model = vendor.catalogue.models.find((m) => m.id === 'a_model_1')!;
    expect(model.voices).toHaveLength(37);
    const speakers = (vendor.voices ?? []).filter((v) => v.models.includes('a_model_1'));
    expect(speakers.map((v) => v.id)).toEqual(model.voices);
    for (const speaker of speakers) {
      expect(['male', 'female', 'neutral']).toContain(speaker.gender);
      expect([...speaker.languages].sort()).toEqual([...LANGUAGES].sort());
      expect(speaker.id).toMatch(/^[a-z]+$/); // the vendor's speakers are lowercase names
    }
  });

  it('a_model_2 lists no fixed voices, yet its personas are catalogue voices with one recording language', () => {
    const model = vendor.catalogue.models.find((m) => m.id === 'a_model_2')!;
    expect(model.voices).toBeNull();
    const personas = (vendor.voices ?? []).filter((v) => v.models.includes('a_model_2'));
    expect(personas.length).toBeGreaterThan(0);
    for (const persona of personas) {
      expect(persona.languages).toHaveLength(1);
      expect(LANGUAGES).toContain(persona.languages[0]);
      expect(persona.gender).not.toBeNull();
    }
  });

  it('uses the router splitter and skips sentences with no letter or digit', () => {
    expect(vendor.splitter).toBe('router');
    expect(vendor.unspeakable).toBe('no-letter-or-digit');
  });

  it('serves a_model_2 from the vendor second socket generation', () => {
    expect(vendor.modelTraits['a_model_2']?.apiVersion).toBe('v2');
  });
});

describe('vendor_b', () => {
  const vendor = getVendor('vendor_b');

  it('has two models with the vendor codes', () => {
    expect(vendor.catalogue.models).toHaveLength(2);
    for (const model of vendor.catalogue.models) {
      expect(model.languages).toEqual(
        expect.arrayContaining([
          'hi',
          'mr',
          'te',
          'kn',
          'bn',
          'as',
          'gu',
          'ne',
          'ml',
          'ta',
          'en-in',
          'en-us',
        ]),
      );
      expect(model.voices).toBeNull(); // from the vendor list
    }
  });

  it('uses the router splitter and skips punctuation-only sentences', () => {
    expect(vendor.splitter).toBe('router');
    expect(vendor.unspeakable).toBe('punctuation-only');
  });
});

describe('vendor_c', () => {
  const vendor = getVendor('vendor_c');

  it('has nine models, c_model_1 to c_model_9', () => {
    expect(vendor.catalogue.models.map((m) => m.id)).toEqual(
      Array.from({ length: 9 }, (_, i) => `c_model_${i + 1}`),
    );
  });

  it('has exactly two dialogue models', () => {
    const dialogue = vendor.catalogue.models.filter((m) => vendor.modelTraits[m.id]?.dialogue === true);
    expect(dialogue).toHaveLength(2);
  });

  it('reads every voice live from the org account', () => {
    expect(vendor.voices).toBeNull();
    for (const model of vendor.catalogue.models) expect(model.voices).toBeNull();
  });

  it('offers mp3 only at 22050, 24000 and 44100 Hz and G.711 only at 8000 Hz (their default)', () => {
    expect(vendor.formatRules.mp3?.sampleRates).toEqual([22050, 24000, 44100]);
    for (const format of ['mulaw', 'alaw'] as const) {
      expect(vendor.formatRules[format]?.sampleRates).toEqual([8000]);
      expect(vendor.formatRules[format]?.defaultSampleRate).toBe(8000);
    }
    expect(vendor.formatRules.pcm).toBeUndefined(); // pcm and wav: 8000 to 48000
    expect(vendor.formatRules.wav).toBeUndefined();
  });

  it('keeps word timings and finishes an interrupted sentence', () => {
    expect(vendor.wordTimings).toBe(true);
    expect(vendor.finishesTakeOnInterrupt).toBe(true);
  });
});

describe('vendor_d', () => {
  const vendor = getVendor('vendor_d');

  it('has four models, two of which take instructions', () => {
    expect(vendor.catalogue.models).toHaveLength(4);
    const instructions = vendor.catalogue.options.find((o) => o.name === 'instructions')!;
    expect(instructions.models).toHaveLength(2);
    // The other two ignore it rather than refuse it.
    expect(vendor.optionRules['instructions']?.outsideModels).toBe('ignore');
  });

  it('has catalogue voices, the same list on every model', () => {
    expect(vendor.voices).not.toBeNull();
    const ids = (vendor.voices ?? []).map((v) => v.id);
    expect(ids).toHaveLength(13);
    for (const model of vendor.catalogue.models) expect(model.voices).toEqual(ids);
  });
});

describe('vendor_e', () => {
  const vendor = getVendor('vendor_e');

  it('has language lists like en, es, de, fr, it, ja, nl', () => {
    const all = new Set(vendor.catalogue.models.flatMap((m) => m.languages));
    for (const code of ['en', 'es', 'de', 'fr', 'it', 'ja', 'nl']) expect(all).toContain(code);
  });

  it('has two first-generation models and one second-generation model', () => {
    const versions = vendor.catalogue.models.map((m) => vendor.modelTraits[m.id]?.apiVersion);
    expect(versions.filter((v) => v === 'v1')).toHaveLength(2);
    expect(versions.filter((v) => v === 'v2')).toHaveLength(1);
  });
});

describe('vendor_h, vendor_i, vendor_j', () => {
  it('vendor_h has two models and skips text with no letter or digit', () => {
    expect(getVendor('vendor_h').catalogue.models).toHaveLength(2);
    expect(getVendor('vendor_h').unspeakable).toBe('no-letter-or-digit');
  });

  it('vendor_i serves mp3 only over its one-shot endpoint and finishes an interrupted sentence', () => {
    expect(getVendor('vendor_i').formatRules.mp3?.restOnly).toBe(true);
    expect(getVendor('vendor_i').finishesTakeOnInterrupt).toBe(true);
  });

  it('word timings are cached for exactly vendor_c, vendor_h and vendor_i', () => {
    expect(VENDORS.filter((v) => v.wordTimings).map((v) => v.id)).toEqual([
      'vendor_c',
      'vendor_h',
      'vendor_i',
    ]);
  });

  it('vendor_j speakers are only for its two newest models', () => {
    const vendor = getVendor('vendor_j');
    const newest = vendor.catalogue.models.slice(-2).map((m) => m.id);
    expect(vendor.catalogue.options.find((o) => o.name === 'speakers')?.models).toEqual(newest);
  });
});

describe('splitters', () => {
  it('only vendor_a and vendor_b use the router splitter', () => {
    expect(VENDORS.filter((v) => v.splitter === 'router').map((v) => v.id)).toEqual(['vendor_a', 'vendor_b']);
  });
});

describe('voices held by the router catalogue', () => {
  it('vendor_a and vendor_d (and vendor_j fixed list) hold catalogue voices; the others list live', () => {
    expect(VENDORS.filter((v) => v.voices !== null).map((v) => v.id)).toEqual([
      'vendor_a',
      'vendor_d',
      'vendor_j',
    ]);
  });
});
