import {
  UNSTATED_MAX_INPUT_CHARS,
  catalogueHead,
  catalogueModel,
  catalogueOption,
} from './catalogue.builders';
import { testVendor } from './test-vendor.fixture';
import { checkVendorDefinition, defineVendor } from './vendor-definition.check';

describe('catalogueOption', () => {
  it('writes an option left to the vendor as null and nullable, with no bounds, values or model list', () => {
    const option = catalogueOption({ name: 'emotion', type: 'string', description: 'How it sounds.' });
    // Every field of the spec's Option, in its order.
    expect(Object.keys(option).join()).toBe('name,type,default,nullable,min,max,values,models,description');
    expect([option.name, option.type, option.description]).toEqual(['emotion', 'string', 'How it sounds.']);
    expect([option.default, option.nullable]).toEqual([null, true]);
    expect([option.min, option.max, option.values, option.models]).toEqual([null, null, null, null]);
  });

  it('keeps a default as not nullable unless said, and every field it is given', () => {
    const option = catalogueOption({
      name: 'bit_rate',
      type: 'integer',
      default: 48000,
      min: 8000,
      max: 192000,
      values: ['32000', '48000'],
      models: ['c_model_1'],
      description: 'Bits per second.',
    });
    expect(option).toMatchObject({ default: 48000, nullable: false, min: 8000, max: 192000 });
    expect(option.values).toEqual(['32000', '48000']);
    expect(option.models).toEqual(['c_model_1']);
    expect(catalogueOption({ name: 'b', type: 'boolean', default: false, description: 'd' }).nullable).toBe(
      false,
    );
    expect(
      catalogueOption({ name: 'r', type: 'string', default: '128k', nullable: true, description: 'd' })
        .nullable,
    ).toBe(true);
  });

  it('copies the lists it is given, so a frozen definition never freezes a shared constant', () => {
    const shared = ['a_model_2'];
    const option = catalogueOption({ name: 'pitch', type: 'number', models: shared, description: 'd' });
    expect(option.models).not.toBe(shared);
  });
});

describe('catalogueHead and catalogueModel', () => {
  it("names a vendor by its token's letter and links its docs site", () => {
    expect(catalogueHead('vendor_j')).toEqual({
      id: 'vendor_j',
      name: 'Vendor J',
      docs_url: 'https://docs.vendor-j.invalid/text-to-speech',
    });
  });

  it("gives a model its languages, its catalogue voices or null, and the vendor's voices page", () => {
    const languages = ['en', 'de'];
    const model = catalogueModel('vendor_d', 'd_model_1', languages, ['alloy']);
    expect(model).toEqual({
      id: 'd_model_1',
      languages: ['en', 'de'],
      voices: ['alloy'],
      voices_url: 'https://docs.vendor-d.invalid/voices',
    });
    expect(model.languages).not.toBe(languages);
    expect(catalogueModel('vendor_g', 'g_model_1', ['en']).voices).toBeNull();
  });
});

describe('defineVendor with rules left out', () => {
  it('fills no format rules, option rules or model traits, in the order a whole definition has', () => {
    const { formatRules: _f, optionRules: _o, modelTraits: _m, ...declared } = testVendor();
    declared.catalogue = { ...declared.catalogue, options: [] };
    const def = defineVendor(declared);
    expect(def.formatRules).toEqual({});
    expect(def.optionRules).toEqual({});
    expect(def.modelTraits).toEqual({});
    expect(def.maxInputChars).toBe(testVendor().maxInputChars);
    expect(Object.keys(def)).toEqual(Object.keys(testVendor()));
    expect(checkVendorDefinition(def)).toEqual([]);
  });

  it('takes an input limit left out as the one for a vendor that states none', () => {
    const { maxInputChars: _limit, ...declared } = testVendor();
    expect(defineVendor(declared).maxInputChars).toBe(UNSTATED_MAX_INPUT_CHARS);
    expect(UNSTATED_MAX_INPUT_CHARS).toBeLessThan(testVendor().maxInputChars);
  });
});
