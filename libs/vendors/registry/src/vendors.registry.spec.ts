import Ajv from 'ajv';
import { vendorBaseUrls } from '@router/config';
import {
  SPEC_MODEL_FIELDS,
  SPEC_OPTION_FIELDS,
  SPEC_PROVIDER_FIELDS,
  SPEC_VENDOR_TOKENS,
} from '@router/spec-facts';
import { checkVendorDefinition } from '@router/vendors-core';
import {
  catalogueResponse,
  catalogueResponseJson,
  findVendor,
  getVendor,
  isVendorId,
  VENDOR_ENTRIES,
  VENDORS,
} from './vendors.registry';
import { createUpstreams } from './upstreams';

const TOKENS = [...SPEC_VENDOR_TOKENS];

/** The spec's Provider / Model / Option tables as a closed JSON schema: every field required, no others. */
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const CATALOGUE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['providers'],
  properties: {
    providers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [...SPEC_PROVIDER_FIELDS],
        properties: {
          id: { type: 'string', enum: TOKENS },
          name: { type: 'string', minLength: 1 },
          docs_url: { type: 'string', pattern: '^https://' },
          formats: {
            type: 'array',
            minItems: 1,
            uniqueItems: true,
            items: { enum: ['pcm', 'wav', 'mp3', 'aac', 'mulaw', 'alaw'] },
          },
          models: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              additionalProperties: false,
              required: [...SPEC_MODEL_FIELDS],
              properties: {
                id: { type: 'string', pattern: '^[a-z]_model_[0-9]+$' },
                languages: { type: 'array', items: { type: 'string', minLength: 1 } },
                voices: nullable({ type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } }),
                voices_url: { type: 'string', pattern: '^https://' },
              },
            },
          },
          options: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: [...SPEC_OPTION_FIELDS],
              properties: {
                name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
                type: { enum: ['number', 'string', 'integer', 'boolean', 'object', 'array'] },
                default: {},
                nullable: { type: 'boolean' },
                min: nullable({ type: 'number' }),
                max: nullable({ type: 'number' }),
                values: nullable({ type: 'array', items: { type: 'string' } }),
                models: nullable({ type: 'array', items: { type: 'string' } }),
                description: { type: 'string', minLength: 1 },
              },
            },
          },
          sample_rates: {
            type: 'array',
            minItems: 1,
            items: { enum: [8000, 16000, 22050, 24000, 32000, 44100, 48000] },
          },
          speech_sample_rates: {
            type: 'array',
            minItems: 1,
            items: { enum: [8000, 16000, 22050, 24000, 32000, 44100, 48000] },
          },
          speed: nullable({
            type: 'object',
            additionalProperties: false,
            required: ['min', 'max'],
            properties: { min: { type: 'number' }, max: { type: 'number' }, default: { type: 'number' } },
          }),
        },
      },
    },
  },
};

describe('VENDORS', () => {
  it('holds the ten vendors in token order', () => {
    expect(VENDORS.map((v) => v.id)).toEqual(TOKENS);
  });

  it.each(VENDORS.map((v) => [v.id, v]))('%s definition is consistent', (_id, vendor) => {
    expect(checkVendorDefinition(vendor)).toEqual([]);
  });

  it('definitions are frozen, so no caller can change the catalogue', () => {
    const vendor = getVendor('vendor_a');
    expect(Object.isFrozen(vendor)).toBe(true);
    expect(Object.isFrozen(vendor.catalogue.options[0])).toBe(true);
    expect(() => {
      (vendor.catalogue.formats as string[]).push('flac');
    }).toThrow(TypeError);
  });

  it('model ids follow the spec pattern <letter>_model_<n> with the vendor letter, numbered from 1', () => {
    for (const vendor of VENDORS) {
      const letter = vendor.id.slice(-1);
      const ids = vendor.catalogue.models.map((m) => m.id);
      expect(ids).toEqual(ids.map((_, i) => `${letter}_model_${i + 1}`));
    }
  });

  it('display names are "Vendor X" and addresses are placeholders under .invalid', () => {
    for (const vendor of VENDORS) {
      const letter = vendor.id.slice(-1);
      expect(vendor.catalogue.name).toBe(`Vendor ${letter.toUpperCase()}`);
      const urls = [vendor.catalogue.docs_url, ...vendor.catalogue.models.map((m) => m.voices_url)];
      for (const url of urls) expect(new URL(url).hostname).toBe(`docs.vendor-${letter}.invalid`);
    }
  });
});

describe('VENDOR_ENTRIES, one per vendor', () => {
  it('holds each token once, its definition under its own token, and VENDORS follows token order', () => {
    expect(Object.keys(VENDOR_ENTRIES)).toEqual(TOKENS);
    for (const token of TOKENS) {
      expect(VENDOR_ENTRIES[token].definition.id).toBe(token);
    }
    expect(VENDORS.map((v) => v.id)).toEqual(TOKENS);
  });

  it("each entry's adapter speaks for its own vendor", () => {
    for (const token of TOKENS) {
      const adapter = VENDOR_ENTRIES[token].createAdapter({
        baseUrl: 'http://vendor.invalid',
      });
      expect(adapter.vendor).toBe(token);
    }
  });

  it('every vendor has its VENDOR_X_BASE_URL setting', () => {
    const config = Object.fromEntries(
      TOKENS.map((token) => [`${token.toUpperCase()}_BASE_URL`, `http://${token}.invalid`]),
    );
    expect(Object.keys(vendorBaseUrls(config))).toEqual(TOKENS);
  });

  it('createUpstreams builds adapters only for the vendors given a base URL', () => {
    const upstream = createUpstreams({ vendor_c: 'http://vendor-c.invalid', vendor_d: '' });
    expect(upstream('vendor_c')?.vendor).toBe('vendor_c');
    expect(upstream('vendor_d')).toBeUndefined();
    expect(upstream('vendor_a')).toBeUndefined();
    expect(upstream('vendor_z')).toBeUndefined();
  });
});

describe('getVendor, findVendor, isVendorId', () => {
  it('getVendor returns the definition of each token', () => {
    for (const token of TOKENS) expect(getVendor(token as never).id).toBe(token);
  });

  it('getVendor throws for a string that is not a token', () => {
    expect(() => getVendor('vendor_zz' as never)).toThrow(/Unknown vendor/);
  });

  it('findVendor is undefined for unknown ids', () => {
    expect(findVendor('vendor_c')?.id).toBe('vendor_c');
    expect(findVendor('vendor_z')).toBeUndefined();
    expect(findVendor('')).toBeUndefined();
  });

  it("isVendorId accepts exactly the spec's tokens", () => {
    for (const token of TOKENS) expect(isVendorId(token)).toBe(true);
    for (const other of ['VENDOR_A', 'vendor-a', 'vendor_zz', 'a', '', ' vendor_a', null, undefined, 1, {}]) {
      expect(isVendorId(other)).toBe(false);
    }
  });
});

describe('catalogueResponse (GET /v1/models)', () => {
  const body = catalogueResponse();

  it('matches the closed schema of the spec (every field present, nothing more)', () => {
    const validate = new Ajv({ allErrors: true, strict: true }).compile(CATALOGUE_SCHEMA);
    const ok = validate(body);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('lists the providers in token order', () => {
    expect(body.providers.map((p) => p.id)).toEqual(TOKENS);
  });

  it('every Provider has exactly the spec field set', () => {
    for (const provider of body.providers) expect(Object.keys(provider)).toEqual(SPEC_PROVIDER_FIELDS);
  });

  it('every Model and Option has exactly the spec field set', () => {
    for (const provider of body.providers) {
      for (const model of provider.models) expect(Object.keys(model)).toEqual(SPEC_MODEL_FIELDS);
      for (const option of provider.options) {
        expect(Object.keys(option)).toEqual(SPEC_OPTION_FIELDS);
      }
    }
  });

  it('speed carries default only where the spec states one (vendor_g, vendor_h)', () => {
    const withDefault = body.providers.filter((p) => p.speed && 'default' in p.speed).map((p) => p.id);
    expect(withDefault).toEqual(['vendor_g', 'vendor_h']);
  });

  it('holds none of the internal facts', () => {
    const json = catalogueResponseJson();
    for (const internal of [
      'optionRules',
      'formatRules',
      'modelTraits',
      'speedDefault',
      'splitter',
      'dialogue',
    ]) {
      expect(json).not.toContain(internal);
    }
  });

  it('returns a fresh object each call, equal to the serialised form', () => {
    const first = catalogueResponse();
    (first.providers as unknown[]).length = 0;
    expect(catalogueResponse().providers).toHaveLength(TOKENS.length);
    expect(JSON.parse(catalogueResponseJson())).toEqual(catalogueResponse());
  });
});
