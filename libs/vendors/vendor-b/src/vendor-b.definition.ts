import { catalogueHead, catalogueModel, defineVendor } from '@router/vendors-core';

/** The vendor's lowercase codes; regions only for English. */
const LANGUAGES = ['hi', 'mr', 'te', 'kn', 'bn', 'as', 'gu', 'ne', 'ml', 'ta', 'en-in', 'en-us'];

/**
 * vendor_b: two models, Indic languages, no options. Voices come from the vendor's list, each voice
 * belonging to one model. It has no mp3, so the speech body's default format is refused for it.
 */
export const vendorB = defineVendor({
  id: 'vendor_b',
  catalogue: {
    ...catalogueHead('vendor_b'),
    formats: ['pcm', 'wav', 'mulaw'],
    models: [
      catalogueModel('vendor_b', 'b_model_1', LANGUAGES),
      catalogueModel('vendor_b', 'b_model_2', LANGUAGES),
    ],
    options: [],
    sample_rates: [8000, 16000, 22050, 24000],
    speed: { min: 0.5, max: 1.5 },
  },
  language: 'required',
  speedDefault: 1.0,
  voices: null,
  splitter: 'router',
  unspeakable: 'punctuation-only',
  wordTimings: false,
  finishesTakeOnInterrupt: false,
});
