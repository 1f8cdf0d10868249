import { VENDOR_H_MODELS } from '@router/vendor-h';

/**
 * vendor_h's voices as its listings serve them. Each model has its own stock catalogue (`get_voices` per
 * model, camelCase keys, language tags, no paging); cloned voices (`voice_*` ids) live under
 * `/waves/v1/voice-cloning`. Names are invented placeholders. The vendor does not reject a voice used with
 * the other model, so any known voice works with either.
 */
export interface VendorHVoice {
  readonly voiceId: string;
  readonly displayName: string;
  readonly tags: {
    readonly language: readonly string[];
    readonly accent: string;
    readonly gender: 'female' | 'male';
    readonly age: string;
    readonly emotions: readonly string[];
    readonly usecases: readonly string[];
  };
}

export interface VendorHClonedVoice {
  readonly _id: string;
  readonly voiceId: string;
  readonly displayName: string;
  readonly description: string;
  readonly accent: string;
  readonly tags: readonly string[];
  readonly language: string;
  readonly status: 'completed' | 'processing';
  readonly cloningType: 'instant';
  readonly modelIds: readonly string[];
  readonly createdAt: string;
}

function voice(
  voiceId: string,
  displayName: string,
  gender: 'female' | 'male',
  language: readonly string[],
  accent: string,
): VendorHVoice {
  return {
    voiceId,
    displayName,
    tags: { language, accent, gender, age: 'adult', emotions: [], usecases: ['narration'] },
  };
}

export const VENDOR_H_VOICES: Readonly<Record<(typeof VENDOR_H_MODELS)[number], readonly VendorHVoice[]>> = {
  h_model_1: [
    voice('h1_voice_f1', 'Arvela', 'female', ['en', 'hi'], 'indian'),
    voice('h1_voice_m1', 'Doran', 'male', ['en', 'hi'], 'indian'),
    voice('h1_voice_f2', 'Liora', 'female', ['en'], 'american'),
    voice('h1_voice_m2', 'Tessan', 'male', ['en'], 'british'),
    voice('h1_voice_f3', 'Mirel', 'female', ['ta', 'te', 'kn', 'ml'], 'indian'),
    voice('h1_voice_m3', 'Ravok', 'male', ['es', 'fr', 'de', 'it'], 'european'),
  ],
  h_model_2: [
    voice('h2_voice_f1', 'Sorenne', 'female', ['en', 'hi', 'mr'], 'indian'),
    voice('h2_voice_m1', 'Kaspen', 'male', ['en', 'ja', 'ko', 'zh'], 'neutral'),
    voice('h2_voice_f2', 'Ymira', 'female', ['en', 'ar', 'tr'], 'neutral'),
    voice('h2_voice_m2', 'Orvel', 'male', ['en', 'pl', 'fi', 'no'], 'european'),
  ],
};

export const VENDOR_H_CLONED_VOICES: readonly VendorHClonedVoice[] = [
  {
    _id: '65f0c0ffee0000000000a001',
    voiceId: 'voice_h_clone_1',
    displayName: 'Studio Clone One',
    description: 'An instant clone made for tests.',
    accent: 'neutral',
    tags: ['clone'],
    language: 'en',
    status: 'completed',
    cloningType: 'instant',
    modelIds: ['h_model_1', 'h_model_2'],
    createdAt: '2026-01-05T10:00:00.000Z',
  },
];

/** Whether the vendor knows the voice: any model's stock voice or a cloned one. */
export function isVendorHVoice(id: string): boolean {
  return (
    VENDOR_H_MODELS.some((m) => VENDOR_H_VOICES[m].some((v) => v.voiceId === id)) ||
    VENDOR_H_CLONED_VOICES.some((v) => v.voiceId === id)
  );
}
