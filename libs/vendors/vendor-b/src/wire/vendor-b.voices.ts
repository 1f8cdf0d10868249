import { speakableVoices, stringOrNull, voiceGender, type Voice } from '@router/vendors-core';
import { vendorB } from '../vendor-b.definition';

/*
 * vendor_b's voice list (`GET /v1/voices`, unpaged), both directions: the entries a server lists, and the
 * adapter's reading of them as the router's voices.
 */

/** The vendor's voice list; it does not page. */
export const VENDOR_B_VOICES_PATH = '/v1/voices';

/** One entry of `{voices: [...]}`. */
export interface VendorBVoice {
  readonly voice_id: string;
  readonly name: string;
  /** The voice's own language. */
  readonly language: string;
  /** Every language it speaks. */
  readonly languages: readonly string[];
  readonly gender: 'female' | 'male';
  readonly model: string;
}

export function vendorBVoiceList(voices: readonly VendorBVoice[]): { voices: readonly VendorBVoice[] } {
  return { voices };
}

/**
 * The vendor's `{voices: [...]}` as Voice objects: each voice belongs to one model, speaks the languages it
 * lists (else its own), is a stock voice and has no preview. Entries without an id are skipped; voices of a
 * model the router's catalogue lacks are left out, and with `model` only that model's voices stay.
 */
export function vendorBVoices(body: { voices?: unknown }, model?: string): Voice[] {
  const voices: Voice[] = [];
  for (const raw of Array.isArray(body.voices) ? (body.voices as unknown[]) : []) {
    if (typeof raw !== 'object' || raw === null) continue;
    const v = raw as Record<string, unknown>;
    const id = stringOrNull(v['voice_id']);
    const voiceModel = stringOrNull(v['model']);
    if (id === null || voiceModel === null) continue;
    const languages = Array.isArray(v['languages'])
      ? v['languages'].filter((l): l is string => typeof l === 'string')
      : [stringOrNull(v['language'])].filter((l): l is string => l !== null);
    voices.push({
      id,
      name: stringOrNull(v['name']) ?? id,
      provider: 'vendor_b',
      models: [voiceModel],
      languages,
      gender: voiceGender(v['gender']),
      accent: null,
      age: null,
      description: stringOrNull(v['description']),
      preview_url: null,
      category: 'builtin',
      provider_data: v,
    });
  }
  return speakableVoices(vendorB, voices, model);
}
