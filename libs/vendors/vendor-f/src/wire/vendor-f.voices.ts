import { speakableVoices, stringOrNull, voiceGender, type Voice } from '@router/vendors-core';
import { vendorF } from '../vendor-f.definition';

/*
 * vendor_f's voice list (`GET /v1/tts/voices`), both directions: the entries a server lists, and the
 * adapter's reading of them as the router's voices.
 */

/** The account's voices (built-in and custom); the vendor does not page it. */
export const VENDOR_F_VOICES_PATH = '/v1/tts/voices';

/** One entry of `{voices: [...]}`. */
export interface VendorFVoice {
  readonly voice_id: string;
  readonly name: string;
  readonly description: string;
  readonly gender: 'female' | 'male' | null;
  /** `builtin` for the vendor's stock voices, `custom` for the account's own. */
  readonly type: 'builtin' | 'custom';
  readonly created_at: string | null;
}

export function vendorFVoiceList(voices: readonly VendorFVoice[]): { voices: readonly VendorFVoice[] } {
  return { voices };
}

/**
 * The vendor's `{voices: [...]}` as Voice objects. Its one engine is the router's `f_model_1`; custom voices
 * (cloned from the org's samples) are `cloned`, the rest the vendor's stock. The vendor states no languages.
 * Clients read `voice_id` and fall back to `id`, and so does this.
 */
export function vendorFVoices(body: { voices?: unknown }, model?: string): Voice[] {
  const voices: Voice[] = [];
  for (const raw of Array.isArray(body.voices) ? (body.voices as unknown[]) : []) {
    if (typeof raw !== 'object' || raw === null) continue;
    const v = raw as Record<string, unknown>;
    const id = stringOrNull(v['voice_id']) ?? stringOrNull(v['id']);
    if (id === null) continue;
    voices.push({
      id,
      name: stringOrNull(v['name']) ?? id,
      provider: 'vendor_f',
      models: vendorF.catalogue.models.map((m) => m.id),
      languages: [],
      gender: voiceGender(v['gender']),
      accent: null,
      age: null,
      description: stringOrNull(v['description']),
      preview_url: null,
      category: v['type'] === 'custom' ? 'cloned' : 'builtin',
      provider_data: v,
    });
  }
  return speakableVoices(vendorF, voices, model);
}
