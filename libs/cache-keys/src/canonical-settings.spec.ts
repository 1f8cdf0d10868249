import fc from 'fast-check';
import { VENDORS, getVendor } from '@router/vendors';
import type { JsonValue } from '@router/vendors-core';
import { canonicalJson } from './canonical-json';
import { canonicalSettings, type CanonicalSettings, type SynthesisSettings } from './canonical-settings';
import { settingsArb, withDefaults, withReversedKeys } from './settings.arbitraries';

const form = (c: CanonicalSettings): string => canonicalJson(c as unknown as JsonValue);

const vendorA = getVendor('vendor_a');
const vendorC = getVendor('vendor_c');
const vendorD = getVendor('vendor_d');
const vendorI = getVendor('vendor_i');

const aBase: SynthesisSettings = {
  vendor: 'vendor_a',
  model: 'a_model_2',
  voice: 'persona_1',
  language: 'hi-IN',
  sampleRate: 24000,
  format: 'mp3',
};

describe('canonicalSettings', () => {
  it('fills every option of the model with its catalogue default and the default speed', () => {
    expect(canonicalSettings(vendorA, aBase)).toEqual({
      vendor: 'vendor_a',
      model: 'a_model_2',
      voice: 'persona_1',
      language: 'hi-IN',
      speed: 1,
      sampleRate: 24000,
      format: 'mp3',
      options: {
        bitrate: '128k',
        dict_id: null,
        enable_preprocessing: false,
        loudness: 1,
        max_chunk_length: null,
        min_buffer_size: null,
        pitch: 0,
        temperature: 0.6,
      },
    });
  });

  it('returns options with sorted keys at every depth', () => {
    const c = canonicalSettings(vendorC, {
      vendor: 'vendor_c',
      model: 'c_model_1',
      voice: 'v1',
      sampleRate: 24000,
      format: 'pcm',
      options: { voice_settings: { stability: 0.5, similarity_boost: 0.7, speed: 1.1 } },
    });
    expect(Object.keys(c.options)).toEqual([...Object.keys(c.options)].sort());
    expect(Object.keys(c.options.voice_settings as object)).toEqual([
      'similarity_boost',
      'speed',
      'stability',
    ]);
  });

  it('treats an option sent at its default, or -0 for 0, as left out', () => {
    const omitted = canonicalSettings(vendorA, aBase);
    const explicit = canonicalSettings(vendorA, {
      ...aBase,
      speed: 1.0,
      options: { pitch: -0, loudness: 1.0, temperature: 0.6, dict_id: null, bitrate: '128k' },
    });
    expect(form(explicit)).toBe(form(omitted));
    expect(Object.is(explicit.options.pitch, 0)).toBe(true);
  });

  it('leaves out options of other models unless set, and keeps ones the vendor would get', () => {
    const m1 = canonicalSettings(vendorA, { ...aBase, model: 'a_model_1', voice: 'v' });
    expect(m1.options).not.toHaveProperty('pitch');
    expect(m1.options).toHaveProperty('temperature', 0.6);
    const withPitch = canonicalSettings(vendorA, {
      ...aBase,
      model: 'a_model_1',
      voice: 'v',
      options: { pitch: 0.2 },
    });
    expect(withPitch.options).toHaveProperty('pitch', 0.2);
  });

  it('drops an option the vendor ignores outside its models, and keeps it inside them', () => {
    const base = { vendor: 'vendor_d', voice: 'brook', sampleRate: 24000, format: 'mp3' } as const;
    const older = canonicalSettings(vendorD, {
      ...base,
      model: 'd_model_1',
      options: { instructions: 'Calm.' },
    });
    expect(older.options).toEqual({});
    expect(older.language).toBeNull();
    const newer = canonicalSettings(vendorD, {
      ...base,
      model: 'd_model_3',
      options: { instructions: 'Calm.' },
    });
    expect(newer.options).toEqual({ instructions: 'Calm.' });
  });

  it('leaves out a format-bound option at its default where the format does not take it', () => {
    const pcm = canonicalSettings(vendorA, { ...aBase, format: 'pcm' });
    expect(pcm.options).not.toHaveProperty('bitrate');
    expect(canonicalSettings(vendorA, { ...aBase, format: 'pcm', options: { bitrate: '128k' } })).toEqual(
      pcm,
    );
    // A non-default value is kept: the vendor would receive it, so it must not share the entry.
    expect(
      canonicalSettings(vendorA, { ...aBase, format: 'pcm', options: { bitrate: '64k' } }).options,
    ).toHaveProperty('bitrate', '64k');
  });

  it('uses the per-rate default where the catalogue has one (vendor_c mp3 bitrate)', () => {
    const c = (sampleRate: number, bitrate?: string): SynthesisSettings => ({
      vendor: 'vendor_c',
      model: 'c_model_1',
      voice: 'v1',
      sampleRate,
      format: 'mp3',
      options: bitrate === undefined ? {} : { bitrate },
    });
    expect(canonicalSettings(vendorC, c(22050)).options.bitrate).toBe('32k');
    expect(canonicalSettings(vendorC, c(24000)).options.bitrate).toBe('48k');
    expect(canonicalSettings(vendorC, c(44100)).options.bitrate).toBe('128k');
    expect(canonicalSettings(vendorC, c(24000, '48k'))).toEqual(canonicalSettings(vendorC, c(24000)));
  });

  it('fills the vendor default language and keeps no speed where none is sent (vendor_i)', () => {
    const i: SynthesisSettings = {
      vendor: 'vendor_i',
      model: 'i_model_1',
      voice: 'v',
      sampleRate: 16000,
      format: 'pcm',
    };
    const c = canonicalSettings(vendorI, i);
    expect(c.language).toBe('en');
    expect(c.speed).toBeNull();
    expect(canonicalSettings(vendorI, { ...i, language: 'en' })).toEqual(c);
    expect(canonicalSettings(vendorI, { ...i, speed: 1 }).speed).toBe(1);
  });

  it('keeps case of every string and options outside the catalogue', () => {
    const c = canonicalSettings(vendorI, {
      vendor: 'vendor_i',
      model: 'i_model_1',
      voice: 'Voice-A',
      sampleRate: 16000,
      format: 'pcm',
      options: { emotion: 'Calm', extra_flag: true, skipped: undefined },
    });
    expect(c.voice).toBe('Voice-A');
    expect(c.options.emotion).toBe('Calm');
    expect(c.options.extra_flag).toBe(true);
    expect(c.options).not.toHaveProperty('skipped');
  });

  it('refuses another vendor’s settings and non-finite numbers', () => {
    expect(() => canonicalSettings(vendorC, aBase)).toThrow(/vendor_a/);
    expect(() => canonicalSettings(vendorA, { ...aBase, speed: NaN })).toThrow(TypeError);
    expect(() => canonicalSettings(vendorA, { ...aBase, options: { temperature: Infinity } })).toThrow(
      TypeError,
    );
  });

  describe.each(VENDORS.map((def) => [def.id, def] as const))('properties for %s', (_id, def) => {
    it('is idempotent and survives a JSON round trip', () => {
      fc.assert(
        fc.property(settingsArb(def), (s) => {
          const once = canonicalSettings(def, s);
          expect(canonicalSettings(def, once)).toEqual(once);
          expect(canonicalSettings(def, JSON.parse(JSON.stringify(once)) as SynthesisSettings)).toEqual(once);
        }),
      );
    });

    it('gives one form whether defaults are left out, sent, or keys come in another order', () => {
      fc.assert(
        fc.property(settingsArb(def), (s) => {
          const expected = form(canonicalSettings(def, s));
          expect(form(canonicalSettings(def, withDefaults(def, s, true)))).toBe(expected);
          expect(form(canonicalSettings(def, withDefaults(def, s, false)))).toBe(expected);
          expect(form(canonicalSettings(def, withReversedKeys(s)))).toBe(expected);
        }),
      );
    });
  });
});
