import { SPEC_MODEL_FIELDS, SPEC_PROVIDER_FIELDS } from '@router/spec-facts';
import { toCatalogueResponse, toPublicOption, toPublicProvider } from './public-view';
import { testVendor } from './test-vendor.fixture';

describe('toPublicProvider', () => {
  it('carries exactly the spec fields, in the spec order', () => {
    const provider = toPublicProvider(testVendor());
    expect(Object.keys(provider)).toEqual(SPEC_PROVIDER_FIELDS);
    expect(Object.keys(provider.models[0])).toEqual(SPEC_MODEL_FIELDS);
  });

  it('leaves out extra fields smuggled into the catalogue objects', () => {
    const def = testVendor();
    const smuggled = {
      ...def,
      catalogue: {
        ...def.catalogue,
        secret: 1,
        models: def.catalogue.models.map((m) => ({ ...m, dialogue: true })),
        options: def.catalogue.options.map((o) => ({ ...o, formats: ['mp3'] })),
        speed: { min: 0.5, max: 2, step: 0.1 },
      },
    };
    const json = JSON.stringify(toPublicProvider(smuggled));
    expect(json).not.toMatch(/secret|dialogue|formats":\["mp3"\]|step/);
  });

  it('keeps speed null as null and keeps a stated speed default', () => {
    const def = testVendor();
    expect(toPublicProvider(def).speed).toEqual({ min: 0.5, max: 2, default: 1 });
    expect(
      toPublicProvider({ ...def, catalogue: { ...def.catalogue, speed: { min: 1, max: 2 } } }).speed,
    ).toEqual({
      min: 1,
      max: 2,
    });
    expect(toPublicProvider({ ...def, catalogue: { ...def.catalogue, speed: null } }).speed).toBeNull();
  });

  it('copies arrays so the view never aliases the definition', () => {
    const def = testVendor();
    const provider = toPublicProvider(def);
    expect(provider.formats).not.toBe(def.catalogue.formats);
    expect(provider.models[0].voices).not.toBe(def.catalogue.models[0].voices);
    expect(provider.options[0].values).not.toBe(def.catalogue.options[0].values);
  });
});

describe('toPublicOption', () => {
  it('writes every field, null ones included', () => {
    const option = toPublicOption(testVendor().catalogue.options[3]);
    expect(option).toEqual({
      name: 'locators',
      type: 'array',
      default: null,
      nullable: true,
      min: null,
      max: null,
      values: null,
      models: null,
      description: 'An array of objects.',
    });
  });
});

describe('toCatalogueResponse', () => {
  it('wraps the providers in order', () => {
    const a = testVendor();
    const b = {
      ...testVendor(),
      id: 'vendor_d' as const,
      catalogue: { ...testVendor().catalogue, id: 'vendor_d' },
    };
    expect(toCatalogueResponse([a, b]).providers.map((p) => p.id)).toEqual(['vendor_c', 'vendor_d']);
  });
});
