import { catalogueHead, catalogueModel, catalogueOption, defineVendor } from '@router/vendors-core';
import { VENDOR_J_MODEL_IDS, VENDOR_J_VOICE_IDS, VENDOR_J_VOICES } from './vendor-j.voices';

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

/**
 * vendor_j: three models in release order (`j_model_3` newest); the two newest take two named
 * `speakers`. Audio is always 16-bit PCM mono at 24000 Hz, so the router offers `pcm` and `wav` only. No
 * speed and no language: style, tone, accent and pace go in `instructions`.
 */
export const vendorJ = defineVendor({
  id: 'vendor_j',
  catalogue: {
    ...catalogueHead('vendor_j'),
    formats: ['pcm', 'wav'],
    models: VENDOR_J_MODEL_IDS.map((id) => catalogueModel('vendor_j', id, LANGUAGES, VENDOR_J_VOICE_IDS)),
    options: [
      catalogueOption({
        name: 'instructions',
        type: 'string',
        description: 'How to speak: style, tone, accent, pace.',
      }),
      catalogueOption({
        name: 'speakers',
        type: 'object',
        models: ['j_model_2', 'j_model_3'],
        description:
          'Two speaker names, each with a voice. Replaces voice; requires speaker. Only the two newest models.',
      }),
      catalogueOption({
        name: 'speaker',
        type: 'string',
        description: 'Which of the speakers voices the request.',
      }),
    ],
    sample_rates: [24000],
    speed: null,
  },
  language: 'none',
  speedDefault: null,
  optionRules: {
    speakers: { entries: 2, requires: ['speaker'], replacesVoice: true },
    // `speaker` names one of `speakers`, so alone it means nothing.
    speaker: { requires: ['speakers'] },
  },
  voices: VENDOR_J_VOICES,
  splitter: 'standard',
  unspeakable: null,
  wordTimings: false,
  finishesTakeOnInterrupt: false,
});
