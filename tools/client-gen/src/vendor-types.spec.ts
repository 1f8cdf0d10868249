// The committed per-vendor types of the published client are what tools/client-gen writes from the vendor
// definitions: a changed definition fails here until `npm run client:gen` is run. Reads repo files only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VENDORS } from '@router/vendors';
import { VENDOR_TYPES_PATH, vendorTypesFile } from './vendor-types';

const text = vendorTypesFile(VENDORS);

describe("the published client's per-vendor types", () => {
  it(`${VENDOR_TYPES_PATH} is as \`npm run client:gen\` writes it`, () => {
    const committed = readFileSync(join(__dirname, '..', '..', '..', VENDOR_TYPES_PATH), 'utf8');
    expect(committed).toBe(text);
  });

  it('gives every vendor an entry and an options type, models with their language codes', () => {
    for (const token of ['vendor_a', 'vendor_e', 'vendor_j']) expect(text).toContain(`\n  ${token}: {\n`);
    expect(text).toContain("a_model_1: {\n        language: 'bn-IN' | 'en-IN' |");
    expect(text).toContain('export interface VendorJOptions {');
  });

  it('gives each vendor its run-time traits', () => {
    expect(text).toContain(
      "  vendor_b: { formats: ['pcm', 'wav', 'mulaw'], languageRule: 'required', speed: true, options: [] },",
    );
    expect(text).toContain(
      "  vendor_j: { formats: ['pcm', 'wav'], languageRule: 'none', speed: false, options: ['instructions', 'speakers', 'speaker'] },",
    );
  });

  it('types an option by its catalogue entry and rule: values, nullability, object fields', () => {
    expect(text).toContain("  apply_text_normalization?: 'auto' | 'on' | 'off';");
    expect(text).toContain('  bit_rate?: 32000 | 48000 | null;');
    expect(text).toMatch(
      /voice_settings\?: \{ stability: number; similarity_boost: number; style\?: number; speed\?: number; use_speaker_boost\?: boolean \} \| null;/,
    );
  });
});
