import { checkVendorDefinition, defineVendor } from './vendor-definition.check';
import type { VendorDefinition } from './vendor-definition.types';
import { testVendor } from './test-vendor.fixture';

/** A deep, mutable copy of the fixture with one change applied. */
function broken(change: (def: any) => void): VendorDefinition {
  const def = structuredClone(testVendor()) as any;
  change(def);
  return def as VendorDefinition;
}

describe('checkVendorDefinition', () => {
  it('finds nothing wrong with a consistent definition', () => {
    expect(checkVendorDefinition(testVendor())).toEqual([]);
  });

  it.each<[string, (def: any) => void, RegExp]>([
    ['an id that is not a token', (d) => (d.id = 'vendor_z'), /not a vendor token/],
    ['a catalogue id that differs', (d) => (d.catalogue.id = 'vendor_b'), /catalogue.id/],
    ['a non-https docs URL', (d) => (d.catalogue.docs_url = 'http://x.invalid'), /not an https URL/],
    ['a format the router cannot serve', (d) => d.catalogue.formats.push('opus'), /opus is not allowed/],
    ['a duplicated format', (d) => d.catalogue.formats.push('pcm'), /listed twice/],
    [
      'a streaming rate missing from the speech rates',
      (d) => (d.catalogue.speech_sample_rates = [8000, 16000]),
      /missing from speech_sample_rates/,
    ],
    ['rates out of order', (d) => (d.catalogue.sample_rates = [16000, 8000, 24000]), /ascending/],
    ['a format rule for an unlisted format', (d) => (d.formatRules.aac = {}), /does not list/],
    [
      'a format default outside its rates',
      (d) => (d.formatRules.mulaw.defaultSampleRate = 16000),
      /outside its rates/,
    ],
    ['an input limit below one character', (d) => (d.maxInputChars = 1), /maxInputChars 1 is not/],
    ['a fractional input limit', (d) => (d.maxInputChars = 2500.5), /maxInputChars 2500.5 is not/],
    ['an inverted speed range', (d) => (d.catalogue.speed = { min: 2, max: 1 }), /not a range/],
    ['a speed default differing from speedDefault', (d) => (d.speedDefault = 1.5), /differs/],
    [
      'a speedDefault without speed',
      (d) => ((d.catalogue.speed = null), (d.speedDefault = 1)),
      /without a speed range/,
    ],
    ['duplicate model ids', (d) => (d.catalogue.models[1].id = 'c_model_1'), /listed twice/],
    [
      'a model without languages when the vendor takes one',
      (d) => (d.catalogue.models[1].languages = []),
      /no languages/,
    ],
    ['traits for an unknown model', (d) => (d.modelTraits.c_model_9 = {}), /unknown model c_model_9/],
    [
      'a model voice list that disagrees with the catalogue voices',
      (d) => (d.catalogue.models[0].voices = ['one']),
      /disagrees/,
    ],
    ['an empty voice list instead of null', (d) => (d.catalogue.models[1].voices = []), /empty voice list/],
    [
      'a voice language its models lack',
      (d) => (d.voices[2].languages = ['fr']),
      /language fr not in its models/,
    ],
    ['a voice of an unknown model', (d) => (d.voices[2].models = ['c_model_7']), /unknown model c_model_7/],
    ['duplicate option names', (d) => (d.catalogue.options[1].name = 'bitrate'), /listed twice/],
    ['a default outside the range', (d) => (d.catalogue.options[1].default = 3), /above 2/],
    [
      'a default not among the values',
      (d) => (d.catalogue.options[0].default = '64k'),
      /not an allowed value/,
    ],
    [
      'an integer default off its value list',
      (d) => (d.catalogue.options[2].default = 40000),
      /not an allowed value/,
    ],
    [
      'a non-nullable option defaulting to null',
      (d) => (d.catalogue.options[1].default = null),
      /defaults to null/,
    ],
    ['a range on a string', (d) => (d.catalogue.options[0].min = 1), /range on a non-number/],
    [
      'values on a boolean',
      (d) => (
        (d.catalogue.options[1].type = 'boolean'),
        (d.catalogue.options[1].min = null),
        (d.catalogue.options[1].max = null),
        (d.catalogue.options[1].default = false),
        (d.catalogue.options[1].values = ['x'])
      ),
      /values on a boolean/,
    ],
    [
      'an option restricted to an unknown model',
      (d) => (d.catalogue.options[1].models = ['c_model_5']),
      /unknown model c_model_5/,
    ],
    ['an empty description', (d) => (d.catalogue.options[0].description = ' '), /empty description/],
    ['a rule for an unknown option', (d) => (d.optionRules.nope = {}), /unknown option nope/],
    [
      'a rule format the vendor lacks',
      (d) => (d.optionRules.bitrate.formats = ['aac']),
      /format aac not offered/,
    ],
    [
      'a per-rate value outside the values',
      (d) => (d.optionRules.bitrate.valuesBySampleRate[44100] = ['999k']),
      /not a value/,
    ],
    [
      'a per-rate default not allowed at its rate',
      (d) => (d.optionRules.bitrate.defaultBySampleRate[24000] = '32k'),
      /not allowed there/,
    ],
    ['maxItems on a non-array', (d) => (d.optionRules.bitrate.maxItems = 2), /maxItems on a string/],
    [
      'ignore outside models on an every-model option',
      (d) => (d.optionRules.bitrate.outsideModels = 'ignore'),
      /applies to every model/,
    ],
    [
      'a requirement on an unknown option',
      (d) => (d.optionRules.locators.requires = ['ghost']),
      /requires unknown ghost/,
    ],
  ])('reports %s', (_case, change, message) => {
    expect(checkVendorDefinition(broken(change)).join('\n')).toMatch(message);
  });
});

describe('defineVendor', () => {
  it('returns the definition deep-frozen', () => {
    const def = defineVendor(testVendor());
    expect(Object.isFrozen(def)).toBe(true);
    expect(Object.isFrozen(def.catalogue.models[0].languages)).toBe(true);
    expect(Object.isFrozen(def.optionRules['bitrate'].valuesBySampleRate)).toBe(true);
  });

  it("takes the streams' rates for the speech endpoint where a catalogue names none, its own where it does", () => {
    const { speech_sample_rates: own, ...catalogue } = testVendor().catalogue;
    expect(own).not.toEqual(catalogue.sample_rates);
    expect(defineVendor(testVendor()).catalogue.speech_sample_rates).toEqual(own);
    // The fixture's formats need all its speech rates: the streams here take them all.
    const declared = defineVendor({ ...testVendor(), catalogue: { ...catalogue, sample_rates: own } });
    expect(declared.catalogue.speech_sample_rates).toEqual(own);
    expect(Object.keys(declared.catalogue)).toEqual(Object.keys(testVendor().catalogue));
  });

  it('throws listing every problem', () => {
    const def = broken((d) => {
      d.catalogue.name = '';
      d.catalogue.options[1].default = 9;
    });
    expect(() => defineVendor(def)).toThrow(/empty display name[\s\S]*above 2/);
  });
});
