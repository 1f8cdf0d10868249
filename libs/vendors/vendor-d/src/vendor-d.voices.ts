import type { CatalogueVoice } from '@router/vendors-core';

export const VENDOR_D_MODEL_IDS = ['d_model_1', 'd_model_2', 'd_model_3', 'd_model_4'];

/**
 * vendor_d has no voice list endpoint: its 13 built-in voices (single lowercase words) are router catalogue
 * data, and the router passes `voice` to the vendor as the name. The words are invented placeholders; the
 * vendor states neither gender nor languages, so those are null and empty (spec: Voice).
 */
const VOICE_IDS = [
  'brook',
  'flint',
  'garnet',
  'harbor',
  'heron',
  'ivory',
  'jasper',
  'kestrel',
  'larch',
  'lumen',
  'meadow',
  'pebble',
  'quill',
];

export const VENDOR_D_VOICES: readonly CatalogueVoice[] = VOICE_IDS.map((id) => ({
  id,
  name: id.charAt(0).toUpperCase() + id.slice(1),
  gender: null,
  languages: [],
  models: [...VENDOR_D_MODEL_IDS],
}));

export const VENDOR_D_VOICE_IDS: readonly string[] = VOICE_IDS;
