import { type VendorFVoice, vendorFVoiceId } from '@router/vendor-f';
import { simKeyId } from '../kit/sim-keys';

/**
 * vendor_f's voices as `GET /v1/tts/voices` serves them: five built-in short lowercase names, plus the custom
 * (cloned) voices of the account the key belongs to (two per key here, ids derived from the key's hash, so
 * another account neither lists nor can use them). Names are invented placeholders. No paging.
 */
export const VENDOR_F_BUILTIN_VOICES: readonly VendorFVoice[] = (
  [
    ['aster', 'female', 'Bright, friendly narrator'],
    ['birch', 'male', 'Calm, low and steady'],
    ['coral', 'female', 'Warm conversational voice'],
    ['dune', 'male', 'Crisp newsreader'],
    ['fern', null, 'Soft, neutral assistant'],
  ] as const
).map(([id, gender, description]) => ({
  voice_id: id,
  name: id.charAt(0).toUpperCase() + id.slice(1),
  description,
  gender,
  type: 'builtin' as const,
  created_at: null,
}));

export function vendorFCustomVoices(key: string): VendorFVoice[] {
  const account = simKeyId(key).slice(0, 12);
  return ['a', 'b'].map((suffix, i) => ({
    voice_id: `custom-${account}-${suffix}`,
    name: `Custom voice ${suffix.toUpperCase()}`,
    description: 'Cloned from an uploaded sample',
    gender: null,
    type: 'custom' as const,
    created_at: `2026-0${i + 1}-15T10:00:00Z`,
  }));
}

export function vendorFVoicesFor(key: string): VendorFVoice[] {
  return [...VENDOR_F_BUILTIN_VOICES, ...vendorFCustomVoices(key)];
}

/** The voice named `id` (case-insensitive) that `key`'s account may use, or undefined. */
export function findVendorFVoice(key: string, id: string): VendorFVoice | undefined {
  const wanted = vendorFVoiceId(id);
  return vendorFVoicesFor(key).find((v) => v.voice_id === wanted);
}
