import { type CatalogueProvider, RouterClient } from '@router/client';
import {
  call,
  readE2eStack,
  SPEC_CATALOGUE as TABLE,
  SPEC_MODEL_FIELDS,
  SPEC_OPTION_FIELDS,
  SPEC_OPTIONS as OPTIONS,
  SPEC_PROVIDER_FIELDS,
  SPEC_VENDOR_A_LANGUAGES,
} from '@router/testing';

const stack = readE2eStack();
/** The catalogue is public: a client without a key. */
const router = new RouterClient({ baseUrl: stack.gatewayUrl });

const A_MODEL_2_ONLY = ['pitch', 'loudness', 'enable_preprocessing'];

describe('GET /v1/models (e2e)', () => {
  let providers: CatalogueProvider[];
  const provider = (id: string) => providers.find((p) => p.id === id)!;

  beforeAll(async () => {
    ({ providers } = await router.models());
  });

  it('lists the ten vendors in order with exactly the spec fields', () => {
    expect(providers.map((p) => p.id)).toEqual(Object.keys(TABLE));
    for (const p of providers) {
      expect(Object.keys(p).sort()).toEqual([...SPEC_PROVIDER_FIELDS].sort());
      for (const o of p.options) expect(Object.keys(o).sort()).toEqual([...SPEC_OPTION_FIELDS].sort());
      for (const m of p.models) expect(Object.keys(m).sort()).toEqual([...SPEC_MODEL_FIELDS].sort());
    }
  });

  it.each(Object.entries(TABLE))('matches the catalogue table for %s', (id, facts) => {
    const p = provider(id);
    expect([...p.formats].sort()).toEqual([...facts.formats].sort());
    expect(p.sample_rates).toEqual(facts.sample_rates);
    expect(p.speech_sample_rates).toEqual(facts.speech_sample_rates);
    expect(p.speed).toEqual(facts.speed);
  });

  it.each(OPTIONS)(
    'has %s option %s as the options table gives it',
    (vendor, name, type, min, max, def, values) => {
      const option = provider(vendor).options.find((o) => o.name === name)!;
      expect(option).toBeDefined();
      expect(option.type).toBe(type);
      expect(option.min).toBe(min);
      expect(option.max).toBe(max);
      expect(option.default).toEqual(def);
      if (values) expect(option.values).toEqual(values);
      if (vendor === 'vendor_a')
        expect(option.models).toEqual(A_MODEL_2_ONLY.includes(name) ? ['a_model_2'] : null);
    },
  );

  it('gives vendor_b no options and vendor_a its two models, 11 languages and 37 a_model_1 speakers', () => {
    expect(provider('vendor_b').options).toEqual([]);
    const a = provider('vendor_a');
    expect(a.models.map((m) => m.id)).toEqual(['a_model_1', 'a_model_2']);
    const languages = [...SPEC_VENDOR_A_LANGUAGES].sort();
    for (const m of a.models) expect([...m.languages].sort()).toEqual(languages);
    expect(a.models[0].voices).toHaveLength(37);
    expect(a.models[1].voices).toBeNull();
    expect(provider('vendor_c').models).toHaveLength(9);
    expect(provider('vendor_d').models).toHaveLength(4);
    expect(provider('vendor_b').models).toHaveLength(2);
  });

  it("documents every vendor's options in the OpenAPI speech body, as the catalogue gives them", async () => {
    const { body: catalogue } = await call(stack.gatewayUrl, 'GET', '/v1/models');
    const { body: openapi } = await call(stack.gatewayUrl, 'GET', '/openapi.json');
    const schema = openapi.components.schemas.SpeechBodyDoc;
    expect(schema.additionalProperties).toBe(true);
    for (const provider of catalogue.providers as Array<{ id: string; options: Array<{ name: string }> }>) {
      expect([provider.id, schema['x-vendor-options'][provider.id]]).toEqual([provider.id, provider.options]);
      for (const option of provider.options) expect(schema.description).toContain(`\`${option.name}\``);
    }
    expect(schema.description).toMatch(/- vendor_d: `instructions` string or null/);
    expect(schema.description).toMatch(/- vendor_b: no options/);
  });
});
