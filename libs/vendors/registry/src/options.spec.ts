import { SPEC_OPTION_FIELDS } from '@router/spec-facts';
import type { VendorId } from '@router/vendors-core';
import { getVendor, VENDORS } from './vendors.registry';

/**
 * The spec's "Options by vendor" table, row by row, restated by hand. "X or null" is `nullable: true`;
 * "vendor default X" means the router sends nothing unless asked, so the catalogue default is null.
 * Integer value lists are written as strings (the Option's `values` is `string[]`).
 */
interface Row {
  vendor: VendorId;
  name: string;
  type: string;
  nullable: boolean;
  default: unknown;
  min: number | null;
  max: number | null;
  values: string[] | null;
  models: string[] | null;
}

const row = (
  vendor: VendorId,
  name: string,
  type: string,
  nullable: boolean,
  dflt: unknown,
  range: [number, number] | null,
  values: string[] | null,
  models: string[] | null,
): Row => ({
  vendor,
  name,
  type,
  nullable,
  default: dflt,
  min: range ? range[0] : null,
  max: range ? range[1] : null,
  values,
  models,
});

const A2 = ['a_model_2'];
const ROWS: Row[] = [
  row('vendor_a', 'temperature', 'number', false, 0.6, [0.01, 1.0], null, null),
  row('vendor_a', 'dict_id', 'string', true, null, null, null, null),
  row('vendor_a', 'bitrate', 'string', false, '128k', null, ['32k', '64k', '96k', '128k', '192k'], null),
  row('vendor_a', 'pitch', 'number', false, 0, [-0.5, 0.5], null, A2),
  row('vendor_a', 'loudness', 'number', false, 1.0, [0.1, 2.5], null, A2),
  row('vendor_a', 'enable_preprocessing', 'boolean', false, false, null, null, A2),
  row('vendor_a', 'min_buffer_size', 'integer', true, null, [30, 200], null, null),
  row('vendor_a', 'max_chunk_length', 'integer', true, null, [50, 500], null, null),
  row('vendor_c', 'voice_settings', 'object', true, null, null, null, null),
  row('vendor_c', 'apply_text_normalization', 'string', false, 'auto', null, ['auto', 'on', 'off'], null),
  row('vendor_c', 'apply_language_text_normalization', 'boolean', true, null, null, null, null),
  row('vendor_c', 'enable_ssml_parsing', 'boolean', false, false, null, null, null),
  row('vendor_c', 'enable_logging', 'boolean', false, true, null, null, null),
  row('vendor_c', 'pronunciation_dictionary_locators', 'array', true, null, null, null, null),
  row(
    'vendor_c',
    'bitrate',
    'string',
    true,
    '128k',
    null,
    ['32k', '48k', '64k', '96k', '128k', '192k'],
    null,
  ),
  row('vendor_c', 'sync_alignment', 'boolean', false, true, null, null, null),
  row('vendor_c', 'preferred_alignment', 'string', true, null, null, ['normalized', 'original'], null),
  row('vendor_d', 'instructions', 'string', true, null, null, null, ['d_model_3', 'd_model_4']),
  row('vendor_e', 'mip_opt_out', 'boolean', false, false, null, null, null),
  row('vendor_e', 'bit_rate', 'integer', true, 48000, null, ['32000', '48000'], ['e_model_1', 'e_model_2']),
  row('vendor_f', 'optimize_streaming_latency', 'integer', true, null, [0, 2], null, null),
  row('vendor_f', 'text_normalization', 'boolean', true, null, null, null, null),
  row(
    'vendor_f',
    'bit_rate',
    'integer',
    true,
    128000,
    null,
    ['32000', '64000', '96000', '128000', '192000'],
    null,
  ),
  row('vendor_g', 'reduce_silence', 'boolean', true, null, null, null, null),
  row('vendor_i', 'volume', 'number', true, null, [0.5, 2.0], null, null),
  row('vendor_i', 'emotion', 'string', true, null, null, null, null),
  row('vendor_i', 'pronunciation_dict_id', 'string', true, null, null, null, null),
  row('vendor_i', 'word_timestamps', 'boolean', false, true, null, null, null),
  row('vendor_j', 'instructions', 'string', true, null, null, null, null),
  row('vendor_j', 'speakers', 'object', true, null, null, null, ['j_model_2', 'j_model_3']),
  row('vendor_j', 'speaker', 'string', true, null, null, null, null),
];

describe('options table', () => {
  it.each(VENDORS.map((v) => [v.id]))('%s has exactly the options of the table, in its order', (id) => {
    const expected = ROWS.filter((r) => r.vendor === id).map((r) => r.name);
    expect(getVendor(id).catalogue.options.map((o) => o.name)).toEqual(expected);
  });

  it('vendor_b and vendor_h have no options', () => {
    expect(getVendor('vendor_b').catalogue.options).toEqual([]);
    expect(getVendor('vendor_h').catalogue.options).toEqual([]);
  });

  it.each(ROWS.map((r) => [r.vendor, r.name, r]))('%s %s matches its row', (_vendor, _name, expected) => {
    const option = getVendor(expected.vendor).catalogue.options.find((o) => o.name === expected.name);
    expect(option).toBeDefined();
    const { vendor: _v, ...fields } = expected;
    expect(option).toMatchObject(fields);
    expect(option!.description.length).toBeGreaterThan(0);
  });

  it('every Option has exactly the spec field set', () => {
    for (const vendor of VENDORS) {
      for (const option of vendor.catalogue.options) {
        expect(Object.keys(option).sort()).toEqual([...SPEC_OPTION_FIELDS].sort());
      }
    }
  });
});

describe('option rules beyond the table', () => {
  it('vendor_a bitrate applies to mp3 and aac, fixed at 128k at the REST-only rates', () => {
    const rule = getVendor('vendor_a').optionRules['bitrate'];
    expect(rule?.formats).toEqual(['mp3', 'aac']);
    for (const rate of [32000, 44100, 48000] as const)
      expect(rule?.valuesBySampleRate?.[rate]).toEqual(['128k']);
  });

  it('vendor_c bitrate: 32k at 22050 Hz, 48k at 24000 Hz, 32k to 192k at 44100 Hz (default 128k)', () => {
    const rule = getVendor('vendor_c').optionRules['bitrate'];
    expect(rule?.formats).toEqual(['mp3']);
    expect(rule?.valuesBySampleRate?.[22050]).toEqual(['32k']);
    expect(rule?.valuesBySampleRate?.[24000]).toEqual(['48k']);
    expect(rule?.valuesBySampleRate?.[44100]).toEqual(['32k', '64k', '96k', '128k', '192k']);
    expect(rule?.defaultBySampleRate?.[44100]).toBe('128k');
  });

  it('vendor_c voice_settings: stability and similarity_boost required, style, speed 0.7 to 1.2, dialogue stability only', () => {
    const rule = getVendor('vendor_c').optionRules['voice_settings'];
    const field = (name: string) => rule?.fields?.find((f) => f.name === name);
    expect(field('stability')).toMatchObject({ type: 'number', required: true, min: 0, max: 1 });
    expect(field('similarity_boost')).toMatchObject({ type: 'number', required: true, min: 0, max: 1 });
    expect(field('style')).toMatchObject({ type: 'number', required: false, min: 0, max: 1 });
    expect(field('speed')).toMatchObject({ type: 'number', required: false, min: 0.7, max: 1.2 });
    expect(field('use_speaker_boost')).toMatchObject({ type: 'boolean', required: false });
    expect(rule?.dialogueFields).toEqual(['stability']);
  });

  it('vendor_c pronunciation_dictionary_locators: up to 3 {pronunciation_dictionary_id, version_id}', () => {
    const rule = getVendor('vendor_c').optionRules['pronunciation_dictionary_locators'];
    expect(rule?.maxItems).toBe(3);
    expect(rule?.fields?.map((f) => f.name)).toEqual(['pronunciation_dictionary_id', 'version_id']);
  });

  it('vendor_i word_timestamps is not available with mp3', () => {
    const formats = getVendor('vendor_i').optionRules['word_timestamps']?.formats;
    expect(formats).toBeDefined();
    expect(formats).not.toContain('mp3');
  });

  it('vendor_j speakers: two entries, replaces voice, requires speaker', () => {
    expect(getVendor('vendor_j').optionRules['speakers']).toMatchObject({
      entries: 2,
      replacesVoice: true,
      requires: ['speaker'],
    });
  });

  it('mp3 bitrates of vendor_e and vendor_f apply to mp3 only', () => {
    expect(getVendor('vendor_e').optionRules['bit_rate']?.formats).toEqual(['mp3']);
    expect(getVendor('vendor_f').optionRules['bit_rate']?.formats).toEqual(['mp3']);
  });
});
