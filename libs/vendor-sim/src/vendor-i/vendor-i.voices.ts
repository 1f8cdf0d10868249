import { createHash } from 'node:crypto';

/**
 * vendor_i's public voice library as `/voices` serves it (the router reads these live). Names are invented
 * placeholders; ids are UUIDs derived from the name, so they stay the same across restarts.
 */
export interface VendorIVoice {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tagline: string;
  readonly language: string;
  readonly locales: readonly string[];
  readonly gender: 'feminine' | 'masculine' | 'gender_neutral';
  readonly is_owner: boolean;
  readonly access: 'public';
  readonly visibility: 'public';
  readonly created_at: string;
}

// prettier-ignore
const SEEDS: readonly [string, string, VendorIVoice['gender'], readonly string[]][] = [
  ['Amber Reader', 'en', 'feminine', ['en-US']], ['Basil Narrator', 'en', 'masculine', ['en-GB']],
  ['Cedar Guide', 'en', 'gender_neutral', ['en-US', 'en-AU']], ['Dune Host', 'en', 'masculine', ['en-US']],
  ['Elm Helper', 'en', 'feminine', ['en-IN']], ['Fable Teller', 'en', 'feminine', ['en-GB']],
  ['Garnet Voix', 'fr', 'feminine', ['fr-FR']], ['Heron Voix', 'fr', 'masculine', ['fr-CA']],
  ['Iris Stimme', 'de', 'feminine', ['de-DE']], ['Jasper Stimme', 'de', 'masculine', ['de-DE']],
  ['Kestrel Voz', 'es', 'masculine', ['es-ES']], ['Linden Voz', 'es', 'feminine', ['es-MX']],
  ['Maple Voz', 'pt', 'feminine', ['pt-BR']], ['Nutmeg Sheng', 'zh', 'feminine', ['zh-CN']],
  ['Opal Koe', 'ja', 'feminine', ['ja-JP']], ['Pine Awaaz', 'hi', 'masculine', ['hi-IN']],
  ['Quartz Voce', 'it', 'masculine', ['it-IT']], ['Rowan Moksori', 'ko', 'feminine', ['ko-KR']],
  ['Sage Stem', 'nl', 'gender_neutral', ['nl-NL']], ['Teak Glos', 'pl', 'masculine', ['pl-PL']],
  ['Umber Golos', 'ru', 'feminine', ['ru-RU']], ['Vale Rost', 'sv', 'masculine', ['sv-SE']],
  ['Willow Ses', 'tr', 'feminine', ['tr-TR']], ['Yarrow Sawt', 'ar', 'masculine', ['ar-SA']],
];

function uuidOf(name: string): string {
  const hex = createHash('sha256').update(`vendor_i:${name}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export const VENDOR_I_VOICES: readonly VendorIVoice[] = SEEDS.map(([name, language, gender, locales], i) => ({
  id: uuidOf(name),
  name,
  description: `A ${gender.replace('_', ' ')} ${language} voice for general narration.`,
  tagline: 'Clear and steady',
  language,
  locales,
  gender,
  is_owner: false,
  access: 'public',
  visibility: 'public',
  created_at: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
}));

export function findVendorIVoice(id: string): VendorIVoice | undefined {
  return VENDOR_I_VOICES.find((v) => v.id === id);
}
