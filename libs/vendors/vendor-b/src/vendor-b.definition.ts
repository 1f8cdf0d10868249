import { defineVendor, type VendorDefinition } from '@router/vendors-core';

const DOCS = 'https://docs.vendor-b.invalid';

/** The vendor's lowercase codes; regions only for English. */
const LANGUAGES = ['hi', 'mr', 'te', 'kn', 'bn', 'as', 'gu', 'ne', 'ml', 'ta', 'en-in', 'en-us'];

/**
 * vendor_b: two models, Indic languages, no options. Voices come from the vendor's list, each voice
 * belonging to one model. It has no mp3, so the speech body's default format is refused for it.
 */
export const vendorB: VendorDefinition = defineVendor({
  id: 'vendor_b',
  catalogue: {
    id: 'vendor_b',
    name: 'Vendor B',
    docs_url: `${DOCS}/text-to-speech`,
    formats: ['pcm', 'wav', 'mulaw'],
    models: [
      { id: 'b_model_1', languages: [...LANGUAGES], voices: null, voices_url: `${DOCS}/voices` },
      { id: 'b_model_2', languages: [...LANGUAGES], voices: null, voices_url: `${DOCS}/voices` },
    ],
    options: [],
    sample_rates: [8000, 16000, 22050, 24000],
    speech_sample_rates: [8000, 16000, 22050, 24000],
    speed: { min: 0.5, max: 1.5 },
  },
  language: 'required',
  speedDefault: 1.0,
  formatRules: {},
  optionRules: {},
  modelTraits: {},
  voices: null,
  splitter: 'router',
  // The vendor states no input limit: 2000, the smallest any vendor states (vendor_e's), is safe whatever it is.
  maxInputChars: 2000,
  unspeakable: 'punctuation-only',
  wordTimings: false,
  finishesTakeOnInterrupt: false,
});
