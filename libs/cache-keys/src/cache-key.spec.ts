import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { VENDORS, getVendor } from '@router/vendors';
import { optionsForModel, sampleRatesFor, type JsonValue, type VendorDefinition } from '@router/vendors-core';
import { CACHE_KEY_VERSION, pieceCacheKey, requestCacheKey, storedSettingsFingerprint } from './cache-key';
import { canonicalSettings, type SynthesisSettings } from './canonical-settings';
import {
  effectiveLanguage,
  effectiveOptionJson,
  optionSentArb,
  settingsArb,
  withDefaults,
  withReversedKeys,
} from './settings.arbitraries';
import { canonicalJson } from './canonical-json';

const SECRET = 'unit-test-secret-0123456789abcdef';
const ORG = 'org_1';
const TEXT = 'Hello, world.';

type Extra = Partial<Omit<Parameters<typeof pieceCacheKey>[1], 'settings'>>;

function keyOf(
  def: VendorDefinition,
  s: SynthesisSettings,
  extra: Extra = {},
  secret: string | Buffer = SECRET,
) {
  return pieceCacheKey(secret, { orgId: ORG, text: TEXT, ...extra, settings: canonicalSettings(def, s) });
}

/** Arbitraries for a change of exactly one setting, each to a value the vendor would see as different. */
function changesOf(
  def: VendorDefinition,
): Record<string, (s: SynthesisSettings) => fc.Arbitrary<SynthesisSettings> | null> {
  const modelOf = (s: SynthesisSettings) => def.catalogue.models.find((m) => m.id === s.model)!;
  const changes: Record<string, (s: SynthesisSettings) => fc.Arbitrary<SynthesisSettings> | null> = {
    voice: (s) =>
      fc
        .string({ minLength: 1, maxLength: 10 })
        .filter((v) => v !== s.voice)
        .map((voice) => ({ ...s, voice })),
  };
  if (def.catalogue.formats.some((f) => sampleRatesFor(def, f, 'speech').length > 1)) {
    changes.sampleRate = (s) => {
      const others = sampleRatesFor(def, s.format, 'speech').filter((r) => r !== s.sampleRate);
      return others.length === 0
        ? null
        : fc.constantFrom(...others).map((sampleRate) => ({ ...s, sampleRate }));
    };
  }
  if (def.catalogue.models.length > 1) {
    changes.model = (s) =>
      fc
        .constantFrom(...def.catalogue.models.filter((m) => m.id !== s.model))
        .map((m) => ({ ...s, model: m.id }));
  }
  if (def.catalogue.formats.length > 1) {
    changes.format = (s) =>
      fc
        .constantFrom(...def.catalogue.formats.filter((f) => f !== s.format))
        .map((format) => ({ ...s, format }));
  }
  if (def.language !== 'none') {
    changes.language = (s) => {
      const now = effectiveLanguage(def, s.language);
      const others = [null, ...modelOf(s).languages].filter((l) => effectiveLanguage(def, l) !== now);
      return others.length === 0 ? null : fc.constantFrom(...others).map((language) => ({ ...s, language }));
    };
  }
  const speedRange = def.catalogue.speed;
  if (speedRange) {
    changes.speed = (s) => {
      const now = s.speed ?? def.speedDefault;
      return fc
        .double({ min: speedRange.min, max: speedRange.max, noNaN: true })
        .filter((v) => v !== now)
        .map((speed) => ({ ...s, speed }));
    };
  }
  for (const option of def.catalogue.options) {
    changes[`options.${option.name}`] = (s) => {
      if (!optionsForModel(def, s.model).some((o) => o.name === option.name)) return null;
      const now = effectiveOptionJson(def, s, option);
      return optionSentArb(def, option, s.sampleRate)
        .filter((v) => canonicalJson(v) !== now)
        .map((v) => ({ ...s, options: { ...s.options, [option.name]: v } }));
    };
  }
  return changes;
}

const textArb = fc.string({ minLength: 1, maxLength: 40, unit: 'binary' });
const WHITESPACE = [' ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\u2028', '\u0085'];
const wordArb = fc
  .string({ minLength: 1, maxLength: 8, unit: 'grapheme' })
  .filter((w) => !/\p{White_Space}/u.test(w));
const gapArb = fc
  .array(fc.constantFrom(...WHITESPACE), { minLength: 1, maxLength: 4 })
  .map((a) => a.join(''));

describe('pieceCacheKey', () => {
  it('is a 64-digit hex HMAC-SHA256 of the documented material', () => {
    const def = getVendor('vendor_i');
    const settings = canonicalSettings(def, {
      vendor: 'vendor_i',
      model: 'i_model_1',
      voice: 'Voice-A',
      sampleRate: 16000,
      format: 'pcm',
      options: { emotion: 'calm' },
    });
    const material =
      '{"format":"pcm","kind":"piece","language":"en","model":"i_model_1","options":{"emotion":"calm",' +
      '"pronunciation_dict_id":null,"volume":null,"word_timestamps":true},"org":"org_1","sampleRate":16000,' +
      '"speed":null,"storedSettings":null,"surfaceFamily":null,"text":"Hello, world.","vendor":"vendor_i",' +
      '"version":1,"voice":"Voice-A"}';
    const expected = createHmac('sha256', SECRET).update(material, 'utf8').digest('hex');
    const key = pieceCacheKey(SECRET, { orgId: ORG, settings, text: ' Hello,\n  world. ' });
    expect(key).toBe(expected);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(CACHE_KEY_VERSION).toBe(1);
    expect(pieceCacheKey(SECRET, { orgId: ORG, settings, text: TEXT, keyVersion: 1 })).toBe(key);
    expect(pieceCacheKey(SECRET, { orgId: ORG, settings, text: TEXT, keyVersion: 2 })).not.toBe(key);
    expect(pieceCacheKey(Buffer.from(SECRET, 'utf8'), { orgId: ORG, settings, text: TEXT })).toBe(key);
  });

  it('refuses an empty secret, an empty org and a bad key version, without echoing the text', () => {
    const def = getVendor('vendor_i');
    const settings = canonicalSettings(def, {
      vendor: 'vendor_i',
      model: 'i_model_1',
      voice: 'v',
      sampleRate: 16000,
      format: 'pcm',
    });
    const text = 'private sentence';
    const attempts = [
      () => pieceCacheKey('', { orgId: ORG, settings, text }),
      () => pieceCacheKey(Buffer.alloc(0), { orgId: ORG, settings, text }),
      () => pieceCacheKey(SECRET, { orgId: '', settings, text }),
      () => pieceCacheKey(SECRET, { orgId: ORG, settings, text, keyVersion: 0 }),
      () => pieceCacheKey(SECRET, { orgId: ORG, settings, text, keyVersion: 1.5 }),
    ];
    for (const attempt of attempts) {
      expect(attempt).toThrow();
      try {
        attempt();
      } catch (error) {
        expect(String(error)).not.toContain('private');
      }
    }
  });

  it('shares a key between an omitted option and its default on concrete vendor_c settings', () => {
    const def = getVendor('vendor_c');
    const base: SynthesisSettings = {
      vendor: 'vendor_c',
      model: 'c_model_3',
      voice: 'abc',
      sampleRate: 44100,
      format: 'mp3',
    };
    const key = keyOf(def, base);
    expect(
      keyOf(def, {
        ...base,
        options: { bitrate: '128k', enable_logging: true, apply_text_normalization: 'auto' },
      }),
    ).toBe(key);
    expect(keyOf(def, { ...base, options: { bitrate: '192k' } })).not.toBe(key);
    expect(
      keyOf(def, { ...base, options: { voice_settings: { stability: 0.5, similarity_boost: 0.5 } } }),
    ).not.toBe(key);
    expect(
      keyOf(def, base, { storedSettingsFingerprint: storedSettingsFingerprint({ stability: 0.5 }) }),
    ).not.toBe(key);
    expect(keyOf(def, base, { surfaceFamily: 'rest' })).not.toBe(key);
    expect(keyOf(def, base, { surfaceFamily: null, storedSettingsFingerprint: null })).toBe(key);
  });

  describe.each(VENDORS.map((def) => [def.id, def] as const))('properties for %s', (_id, def) => {
    it('gives equal keys for equal settings, in any key order, with defaults sent or left out', () => {
      fc.assert(
        fc.property(settingsArb(def), textArb, (s, text) => {
          const key = keyOf(def, s, { text });
          expect(keyOf(def, structuredClone(s), { text })).toBe(key);
          expect(keyOf(def, withReversedKeys(s), { text })).toBe(key);
          expect(keyOf(def, withDefaults(def, s, true), { text })).toBe(key);
          expect(keyOf(def, withDefaults(def, s, false), { text })).toBe(key);
        }),
      );
    });

    it('gives equal keys exactly when the canonical settings are equal', () => {
      fc.assert(
        fc.property(settingsArb(def), settingsArb(def), (s1, s2) => {
          const same =
            canonicalJson(canonicalSettings(def, s1) as unknown as JsonValue) ===
            canonicalJson(canonicalSettings(def, s2) as unknown as JsonValue);
          expect(keyOf(def, s1) === keyOf(def, s2)).toBe(same);
        }),
      );
    });

    const changes = changesOf(def);
    it.each(Object.keys(changes))('gives a different key after a change of %s alone', (field) => {
      const change = changes[field];
      const arb = settingsArb(def).chain((s) => {
        const changed = change(s);
        return changed === null ? fc.constant(null) : changed.map((c) => [s, c] as const);
      });
      let checked = 0;
      fc.assert(
        fc.property(arb, (pair) => {
          fc.pre(pair !== null);
          const [before, after] = pair;
          expect(keyOf(def, after)).not.toBe(keyOf(def, before));
          checked += 1;
        }),
      );
      expect(checked).toBeGreaterThan(0);
    });

    it('gives a different key for another org, fingerprint, surface family or secret', () => {
      fc.assert(
        fc.property(
          settingsArb(def),
          fc.string({ minLength: 1 }),
          fc.string({ minLength: 1 }),
          fc.option(fc.string(), { nil: undefined }),
          fc.option(fc.string(), { nil: undefined }),
          (s, a, b, fp1, fp2) => {
            fc.pre(a !== b);
            expect(keyOf(def, s, { orgId: a })).not.toBe(keyOf(def, s, { orgId: b }));
            expect(keyOf(def, s, {}, a)).not.toBe(keyOf(def, s, {}, b));
            expect(keyOf(def, s, { surfaceFamily: a })).not.toBe(keyOf(def, s, { surfaceFamily: b }));
            expect(keyOf(def, s, { surfaceFamily: a })).not.toBe(keyOf(def, s));
            if (fp1 !== fp2) {
              expect(keyOf(def, s, { storedSettingsFingerprint: fp1 })).not.toBe(
                keyOf(def, s, { storedSettingsFingerprint: fp2 }),
              );
            }
          },
        ),
      );
    });
  });
});

describe('pieceCacheKey text', () => {
  const def = getVendor('vendor_a');
  const settings: SynthesisSettings = {
    vendor: 'vendor_a',
    model: 'a_model_1',
    voice: 'v',
    language: 'en-IN',
    sampleRate: 24000,
    format: 'pcm',
  };
  const key = (text: string) => keyOf(def, settings, { text });

  it('ignores whitespace runs and the ends', () => {
    fc.assert(
      fc.property(
        fc.array(wordArb, { minLength: 1, maxLength: 6 }),
        fc.infiniteStream(gapArb),
        gapArb,
        gapArb,
        (words, gaps, lead, tail) => {
          const spaced = lead + words.map((w) => w + gaps.next().value).join('') + tail;
          expect(key(spaced)).toBe(key(words.join(' ')));
        },
      ),
    );
  });

  it('counts case', () => {
    fc.assert(
      fc.property(textArb, fc.nat(), (text, at) => {
        const i = at % text.length;
        const c = text[i];
        const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
        fc.pre(flipped !== c);
        expect(key(text.slice(0, i) + flipped + text.slice(i + 1))).not.toBe(key(text));
      }),
    );
    expect(key('Hello.')).not.toBe(key('hello.'));
  });

  it('counts punctuation', () => {
    fc.assert(
      fc.property(
        textArb,
        fc.nat(),
        fc.constantFrom('.', ',', '!', '?', ';', ':', '…', '।', "'", '"', '-'),
        (text, at, mark) => {
          const i = at % (text.length + 1);
          expect(key(text.slice(0, i) + mark + text.slice(i))).not.toBe(key(text));
        },
      ),
    );
    expect(key('Hello.')).not.toBe(key('Hello'));
    expect(key('1,250')).not.toBe(key('1.250'));
  });

  it('gives a different key for different collapsed text', () => {
    fc.assert(
      fc.property(textArb, textArb, (t1, t2) => {
        const collapse = (t: string) => t.replace(/\p{White_Space}+/gu, ' ').trim();
        fc.pre(collapse(t1) !== collapse(t2));
        expect(key(t1)).not.toBe(key(t2));
      }),
    );
  });

  it('never contains the text', () => {
    const k = key('abc');
    expect(k).toMatch(/^[0-9a-f]{64}$/);
    expect(k).not.toContain(Buffer.from('abc').toString('hex'));
  });
});

describe('storedSettingsFingerprint', () => {
  it('ignores key order and counts any value change', () => {
    expect(storedSettingsFingerprint({ a: 1, b: { c: 2, d: 3 } })).toBe(
      storedSettingsFingerprint({ b: { d: 3, c: 2 }, a: 1 }),
    );
    expect(storedSettingsFingerprint({ a: 1 })).not.toBe(storedSettingsFingerprint({ a: 2 }));
    expect(storedSettingsFingerprint({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('requestCacheKey', () => {
  const base = {
    orgId: ORG,
    vendor: 'vendor_j',
    method: 'POST',
    path: '/v1beta/models/j_model_1:streamGenerateContent',
    query: { alt: 'sse', key: ['k1', 'k2'] },
    body: { contents: [{ parts: [{ text: 'Hi.' }] }], config: { b: 1, a: 2 } },
  } as const;
  const key = requestCacheKey(SECRET, base);

  it('ignores query parameter order, body key order and method case', () => {
    expect(requestCacheKey(SECRET, { ...base, query: { key: ['k1', 'k2'], alt: 'sse' } })).toBe(key);
    expect(
      requestCacheKey(SECRET, { ...base, body: { config: { a: 2, b: 1 }, contents: base.body.contents } }),
    ).toBe(key);
    expect(requestCacheKey(SECRET, { ...base, method: 'post' })).toBe(key);
    expect(
      requestCacheKey(SECRET, {
        ...base,
        query: { ...base.query, alt: ['sse'], none: undefined, empty: [] },
      }),
    ).toBe(key);
  });

  it('counts repeated-value order, every part of the request, the org and the secret', () => {
    const variants = [
      { ...base, query: { ...base.query, key: ['k2', 'k1'] } },
      { ...base, query: { alt: 'sse' } },
      { ...base, method: 'PUT' },
      { ...base, path: '/v1beta/models/j_model_2:streamGenerateContent' },
      { ...base, path: base.path.toUpperCase() },
      { ...base, body: { ...base.body, contents: [{ parts: [{ text: 'Hi!' }] }] } },
      { ...base, body: { ...base.body, contents: [{ parts: [{ text: 'Hi.  ' }] }] } },
      { ...base, body: undefined },
      { ...base, orgId: 'org_2' },
      { ...base, vendor: 'vendor_b' as const },
      { ...base, keyVersion: 2 },
      { ...base, storedSettingsFingerprint: storedSettingsFingerprint({ stability: 0.5 }) },
    ];
    for (const variant of variants) expect(requestCacheKey(SECRET, variant)).not.toBe(key);
    expect(requestCacheKey(SECRET, { ...base, storedSettingsFingerprint: null })).toBe(key);
    expect(requestCacheKey(`${SECRET}x`, base)).not.toBe(key);
  });

  it('counts keyed request headers by name and value, and none is the key without headers', () => {
    const versioned = requestCacheKey(SECRET, { ...base, headers: { 'x-api-version': '2026-03-01' } });
    expect(versioned).not.toBe(key);
    expect(requestCacheKey(SECRET, { ...base, headers: { 'x-api-version': '2025-04-16' } })).not.toBe(
      versioned,
    );
    expect(requestCacheKey(SECRET, { ...base, headers: { 'x-other': '2026-03-01' } })).not.toBe(versioned);
    expect(requestCacheKey(SECRET, { ...base, headers: {} })).toBe(key);
  });

  it('hashes non-JSON bodies byte for byte, apart from JSON bodies', () => {
    const bytes = Buffer.from('{"a":1}');
    const withBytes = requestCacheKey(SECRET, { ...base, body: bytes });
    expect(requestCacheKey(SECRET, { ...base, body: new Uint8Array(bytes) })).toBe(withBytes);
    expect(requestCacheKey(SECRET, { ...base, body: Buffer.from('{"a":2}') })).not.toBe(withBytes);
    expect(requestCacheKey(SECRET, { ...base, body: { a: 1 } })).not.toBe(withBytes);
    expect(requestCacheKey(SECRET, { ...base, body: Buffer.alloc(0) })).not.toBe(
      requestCacheKey(SECRET, { ...base, body: undefined }),
    );
  });

  it('ignores body key order for any JSON body', () => {
    const reverse = (v: JsonValue): JsonValue =>
      v === null || typeof v !== 'object'
        ? v
        : Array.isArray(v)
          ? (v as JsonValue[]).map(reverse)
          : Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reverse(x)]),
            );
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        expect(requestCacheKey(SECRET, { ...base, body: reverse(body as JsonValue) })).toBe(
          requestCacheKey(SECRET, { ...base, body: body as JsonValue }),
        );
      }),
    );
  });
});
