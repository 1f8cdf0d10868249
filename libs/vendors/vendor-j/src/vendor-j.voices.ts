import type { CatalogueVoice } from '@router/vendors-core';

export const VENDOR_J_MODEL_IDS = ['j_model_1', 'j_model_2', 'j_model_3'];

/**
 * vendor_j's voices are a fixed list of 30 prebuilt single-word capitalised names, shared by every model.
 * The names are invented placeholders; the vendor states neither gender nor languages for them.
 */
// prettier-ignore
const VOICE_IDS = [
  'Anselm', 'Arlen', 'Bexley', 'Briar', 'Cassian', 'Corvin', 'Dalia', 'Delphine', 'Evander', 'Fiora',
  'Galen', 'Halden', 'Isolde', 'Jorah', 'Kael', 'Linnea', 'Maren', 'Nolan', 'Oriel', 'Perrin',
  'Quinlan', 'Rosalind', 'Soren', 'Talia', 'Ulric', 'Vesper', 'Wren', 'Xander', 'Yara', 'Zadie',
];

export const VENDOR_J_VOICES: readonly CatalogueVoice[] = VOICE_IDS.map((id) => ({
  id,
  name: id,
  gender: null,
  languages: [],
  models: [...VENDOR_J_MODEL_IDS],
}));

export const VENDOR_J_VOICE_IDS: readonly string[] = VOICE_IDS;
