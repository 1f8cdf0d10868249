import { defineVendor, type ModelCatalogue, type VendorDefinition } from '@router/vendors-core';
import { VENDOR_J_MODEL_IDS, VENDOR_J_VOICE_IDS, VENDOR_J_VOICES } from './vendor-j.voices';

const DOCS = 'https://docs.vendor-j.invalid';

/**
 * The vendor detects the language from the text and takes no language setting; these BCP-47 codes are
 * a plausible completion, informational only.
 */
// prettier-ignore
const LANGUAGES = [
  'ar-EG', 'bn-BD', 'de-DE', 'en-IN', 'en-US', 'es-US', 'fr-FR', 'hi-IN', 'id-ID', 'it-IT', 'ja-JP',
  'ko-KR', 'mr-IN', 'nl-NL', 'pl-PL', 'pt-BR', 'ro-RO', 'ru-RU', 'ta-IN', 'te-IN', 'th-TH', 'tr-TR',
  'uk-UA', 'vi-VN',
];

function model(id: string): ModelCatalogue {
  return { id, languages: [...LANGUAGES], voices: [...VENDOR_J_VOICE_IDS], voices_url: `${DOCS}/voices` };
}

/**
 * vendor_j: three models in release order (`j_model_3` newest); the two newest take two named
 * `speakers`. Audio is always 16-bit PCM mono at 24000 Hz, so the router offers `pcm` and `wav` only. No
 * speed and no language: style, tone, accent and pace go in `instructions`.
 */
export const vendorJ: VendorDefinition = defineVendor({
  id: 'vendor_j',
  catalogue: {
    id: 'vendor_j',
    name: 'Vendor J',
    docs_url: `${DOCS}/text-to-speech`,
    formats: ['pcm', 'wav'],
    models: VENDOR_J_MODEL_IDS.map(model),
    options: [
      {
        name: 'instructions',
        type: 'string',
        default: null,
        nullable: true,
        min: null,
        max: null,
        values: null,
        models: null,
        description: 'How to speak: style, tone, accent, pace.',
      },
      {
        name: 'speakers',
        type: 'object',
        default: null,
        nullable: true,
        min: null,
        max: null,
        values: null,
        models: ['j_model_2', 'j_model_3'],
        description:
          'Two speaker names, each with a voice. Replaces voice; requires speaker. Only the two newest models.',
      },
      {
        name: 'speaker',
        type: 'string',
        default: null,
        nullable: true,
        min: null,
        max: null,
        values: null,
        models: null,
        description: 'Which of the speakers voices the request.',
      },
    ],
    sample_rates: [24000],
    speech_sample_rates: [24000],
    speed: null,
  },
  language: 'none',
  speedDefault: null,
  formatRules: {},
  optionRules: {
    speakers: { entries: 2, requires: ['speaker'], replacesVoice: true },
    // `speaker` names one of `speakers`, so alone it means nothing.
    speaker: { requires: ['speakers'] },
  },
  modelTraits: {},
  voices: VENDOR_J_VOICES,
  splitter: 'standard',
  // The vendor states no input limit: 2000, the smallest any vendor states (vendor_e's), is safe whatever it is.
  maxInputChars: 2000,
  unspeakable: null,
  wordTimings: false,
  finishesTakeOnInterrupt: false,
});
