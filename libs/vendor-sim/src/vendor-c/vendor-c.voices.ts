import { createHash } from 'node:crypto';
import { vendorC } from '@router/vendor-c';

/** A voice's stored settings (`GET /v1/voices/{id}/settings`). */
export interface VoiceSettings {
  stability: number;
  similarity_boost: number;
  style: number;
  use_speaker_boost: boolean;
  speed: number;
}

export const DEFAULT_VOICE_SETTINGS: Readonly<VoiceSettings> = {
  stability: 0.5,
  similarity_boost: 0.75,
  style: 0,
  use_speaker_boost: true,
  speed: 1.0,
};

/**
 * The speed a request speaks at: `voice_settings.speed` when sent; the vendor's default (1.0) when other
 * settings are sent without it (a field the request leaves out of its settings takes the field's default,
 * only `stability` and `similarity_boost` vary by voice); the voice's stored speed when no settings are sent
 * (left out, null, `{}` or every field null).
 */
export function speedOf(voiceSettings: unknown, storedSpeed: number): number {
  if (typeof voiceSettings !== 'object' || voiceSettings === null) return storedSpeed;
  const fields = voiceSettings as Record<string, unknown>;
  const speed = fields['speed'];
  if (typeof speed === 'number') return speed;
  return Object.values(fields).some((value) => value !== null) ? DEFAULT_VOICE_SETTINGS.speed : storedSpeed;
}

export type VoiceCategory = 'premade' | 'cloned' | 'generated' | 'professional';

/** The vendor's Voice object, with the fields its clients read. */
export interface VendorCVoice {
  voice_id: string;
  name: string;
  category: VoiceCategory;
  labels: Record<string, string>;
  description: string | null;
  preview_url: string | null;
  available_for_tiers: string[];
  settings: VoiceSettings | null;
  samples: { sample_id: string; file_name: string; mime_type: string }[] | null;
  fine_tuning: { is_allowed_to_fine_tune: boolean; state: Record<string, string>; language: string | null };
  sharing: { status: string; original_voice_id: string; public_owner_id: string; name: string } | null;
  high_quality_base_model_ids: string[];
  verified_languages: {
    language: string;
    model_id: string;
    accent: string | null;
    locale: string | null;
    preview_url: string | null;
  }[];
  is_owner: boolean;
  is_legacy: boolean;
  created_at_unix: number;
}

const PREVIEW_HOST = 'https://previews.vendor-c.invalid';
const MODELS = vendorC.catalogue.models.map((m) => m.id);

interface VoiceSeed {
  readonly name: string;
  readonly category: VoiceCategory;
  readonly gender: 'female' | 'male' | 'neutral';
  readonly accent: string;
  readonly age: string;
  readonly language: string;
  readonly verified?: readonly string[];
  readonly owner: boolean;
  readonly legacy?: boolean;
  /** Added from the shared library: the owner is someone else and `sharing.status` is `copied`. */
  readonly fromLibrary?: boolean;
  /** A professional clone whose fine-tuning has not finished: listed, but it cannot speak yet. */
  readonly training?: boolean;
}

/** Vendor-style ids: 20 characters of [0-9A-Za-z], stable per name. */
export function vendorCVoiceId(seed: string): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const digest = createHash('sha256').update(seed).digest();
  return Array.from(digest.subarray(0, 20), (b) => alphabet[b % alphabet.length]).join('');
}

// Invented names. With the generated voices below, `/v2/voices` takes two pages even at its largest page size.
const SEEDS: readonly VoiceSeed[] = [
  {
    name: 'Aurelle',
    category: 'premade',
    gender: 'female',
    accent: 'american',
    age: 'young',
    language: 'en',
    verified: ['es', 'fr'],
    owner: false,
  },
  {
    name: 'Brannock',
    category: 'premade',
    gender: 'male',
    accent: 'british',
    age: 'middle_aged',
    language: 'en',
    owner: false,
  },
  {
    name: 'Cassivel',
    category: 'premade',
    gender: 'female',
    accent: 'australian',
    age: 'young',
    language: 'en',
    owner: false,
  },
  {
    name: 'Dorrin',
    category: 'premade',
    gender: 'male',
    accent: 'american',
    age: 'old',
    language: 'en',
    verified: ['de'],
    owner: false,
  },
  {
    name: 'Elowen',
    category: 'premade',
    gender: 'female',
    accent: 'irish',
    age: 'middle_aged',
    language: 'en',
    owner: false,
  },
  {
    name: 'Faramund',
    category: 'premade',
    gender: 'male',
    accent: 'american',
    age: 'young',
    language: 'en',
    owner: false,
  },
  {
    name: 'Galenne',
    category: 'premade',
    gender: 'female',
    accent: 'indian',
    age: 'young',
    language: 'hi',
    verified: ['en'],
    owner: false,
  },
  {
    name: 'Hollis',
    category: 'premade',
    gender: 'neutral',
    accent: 'american',
    age: 'young',
    language: 'en',
    owner: false,
  },
  {
    name: 'Isembard',
    category: 'premade',
    gender: 'male',
    accent: 'german',
    age: 'middle_aged',
    language: 'de',
    verified: ['en'],
    owner: false,
  },
  {
    name: 'Jessamy',
    category: 'premade',
    gender: 'female',
    accent: 'spanish',
    age: 'young',
    language: 'es',
    owner: false,
  },
  {
    name: 'Kestrel',
    category: 'premade',
    gender: 'male',
    accent: 'french',
    age: 'young',
    language: 'fr',
    owner: false,
  },
  {
    name: 'Lisandre',
    category: 'premade',
    gender: 'female',
    accent: 'japanese',
    age: 'young',
    language: 'ja',
    owner: false,
  },
  {
    name: 'Mordaunt',
    category: 'premade',
    gender: 'male',
    accent: 'british',
    age: 'old',
    language: 'en',
    owner: false,
    legacy: true,
  },
  {
    name: 'Nerys',
    category: 'premade',
    gender: 'female',
    accent: 'american',
    age: 'middle_aged',
    language: 'en',
    owner: false,
    legacy: true,
  },
  {
    name: 'My Clone One',
    category: 'cloned',
    gender: 'male',
    accent: 'american',
    age: 'middle_aged',
    language: 'en',
    owner: true,
  },
  {
    name: 'My Clone Two',
    category: 'cloned',
    gender: 'female',
    accent: 'indian',
    age: 'young',
    language: 'hi',
    owner: true,
  },
  {
    name: 'Team Narrator',
    category: 'cloned',
    gender: 'female',
    accent: 'british',
    age: 'middle_aged',
    language: 'en',
    owner: true,
  },
  {
    name: 'Studio Voice',
    category: 'professional',
    gender: 'male',
    accent: 'american',
    age: 'middle_aged',
    language: 'en',
    verified: ['es', 'pt'],
    owner: true,
  },
  {
    name: 'Studio Voice In Training',
    category: 'professional',
    gender: 'female',
    accent: 'american',
    age: 'young',
    language: 'en',
    owner: true,
    training: true,
  },
  {
    name: 'Designed Calm',
    category: 'generated',
    gender: 'female',
    accent: 'american',
    age: 'young',
    language: 'en',
    owner: true,
  },
  {
    name: 'Designed Gravel',
    category: 'generated',
    gender: 'male',
    accent: 'scottish',
    age: 'old',
    language: 'en',
    owner: true,
  },
  {
    name: 'Designed Bright',
    category: 'generated',
    gender: 'neutral',
    accent: 'canadian',
    age: 'young',
    language: 'en',
    owner: true,
  },
  {
    name: 'Library Storyteller',
    category: 'professional',
    gender: 'male',
    accent: 'american',
    age: 'old',
    language: 'en',
    owner: false,
    fromLibrary: true,
  },
  {
    name: 'Library Host',
    category: 'professional',
    gender: 'female',
    accent: 'british',
    age: 'young',
    language: 'en',
    owner: false,
    fromLibrary: true,
  },
  {
    name: 'Library Anchor',
    category: 'professional',
    gender: 'male',
    accent: 'indian',
    age: 'middle_aged',
    language: 'hi',
    verified: ['en'],
    owner: false,
    fromLibrary: true,
  },
  {
    name: 'Library Guide',
    category: 'cloned',
    gender: 'female',
    accent: 'french',
    age: 'young',
    language: 'fr',
    owner: false,
    fromLibrary: true,
  },
  {
    name: 'Library Coach',
    category: 'generated',
    gender: 'male',
    accent: 'australian',
    age: 'young',
    language: 'en',
    owner: false,
    fromLibrary: true,
  },
];

function buildVoice(seed: VoiceSeed, index: number, id = vendorCVoiceId(seed.name)): VendorCVoice {
  const preview = `${PREVIEW_HOST}/${id}/preview.mp3`;
  return {
    voice_id: id,
    name: seed.name,
    category: seed.category,
    labels: {
      gender: seed.gender,
      accent: seed.accent,
      age: seed.age,
      language: seed.language,
      use_case: 'conversational',
    },
    description: `${seed.name}: a ${seed.age.replace('_', ' ')} ${seed.accent} voice`,
    preview_url: preview,
    available_for_tiers: [],
    settings: null,
    samples:
      seed.category === 'cloned' && seed.owner
        ? [{ sample_id: `${id}-s1`, file_name: 'sample.mp3', mime_type: 'audio/mpeg' }]
        : null,
    fine_tuning: {
      is_allowed_to_fine_tune: seed.category === 'professional',
      state:
        seed.category === 'professional' ? { c_model_3: seed.training ? 'fine_tuning' : 'fine_tuned' } : {},
      language: seed.language,
    },
    sharing: seed.fromLibrary
      ? {
          status: 'copied',
          original_voice_id: vendorCVoiceId(`original:${seed.name}`),
          public_owner_id: 'owner_library_1',
          name: seed.name,
        }
      : null,
    high_quality_base_model_ids: MODELS.slice(2),
    verified_languages: [seed.language, ...(seed.verified ?? [])].map((language) => ({
      language,
      model_id: 'c_model_3',
      accent: seed.accent,
      locale: null,
      preview_url: preview,
    })),
    is_owner: seed.owner,
    is_legacy: seed.legacy === true,
    created_at_unix: 1_700_000_000 + index * 86_400,
  };
}

const GENERATED_FIRST = [
  'Ael',
  'Bryn',
  'Cor',
  'Dav',
  'Eir',
  'Fen',
  'Gal',
  'Hal',
  'Ist',
  'Jor',
  'Kel',
  'Lir',
  'Mav',
];
const GENERATED_LAST = ['a', 'en', 'is', 'wyn', 'ith', 'ora', 'umb', 'ex'];
const GENERATED_KINDS: readonly Pick<VoiceSeed, 'category' | 'owner' | 'fromLibrary'>[] = [
  { category: 'premade', owner: false },
  { category: 'cloned', owner: true },
  { category: 'generated', owner: true },
  { category: 'professional', owner: false, fromLibrary: true },
];

/** A large account: 104 more invented voices of every kind, so listing really crosses pages. */
const GENERATED_SEEDS: readonly VoiceSeed[] = GENERATED_FIRST.flatMap((first) =>
  GENERATED_LAST.map((last) => `${first}${last}`),
).map((name, i) => ({
  name,
  ...GENERATED_KINDS[i % GENERATED_KINDS.length],
  gender: i % 2 === 0 ? 'female' : 'male',
  accent: ['american', 'british', 'indian', 'australian'][i % 4],
  age: ['young', 'middle_aged', 'old'][i % 3],
  language: ['en', 'es', 'hi', 'de', 'fr'][i % 5],
}));

export const BASE_VOICES: readonly VendorCVoice[] = [...SEEDS, ...GENERATED_SEEDS].map((seed, i) =>
  buildVoice(seed, i),
);

/** Voices in the shared library that `POST /v1/voices/add/{public_owner_id}/{voice_id}` can add. */
export interface SharedVoice {
  public_owner_id: string;
  voice_id: string;
  name: string;
  category: VoiceCategory;
  language: string;
  accent: string;
  gender: string;
  age: string;
  descriptive: string;
  use_case: string;
  description: string;
  preview_url: string;
  date_unix: number;
  cloned_by_count: number;
  free_users_allowed: boolean;
  verified_languages: VendorCVoice['verified_languages'];
}

const SHARED_SEEDS: readonly VoiceSeed[] = [
  {
    name: 'Shared Baritone',
    category: 'professional',
    gender: 'male',
    accent: 'american',
    age: 'middle_aged',
    language: 'en',
    owner: false,
  },
  {
    name: 'Shared Whisper',
    category: 'professional',
    gender: 'female',
    accent: 'british',
    age: 'young',
    language: 'en',
    owner: false,
  },
  {
    name: 'Shared Narrator',
    category: 'cloned',
    gender: 'male',
    accent: 'indian',
    age: 'old',
    language: 'hi',
    owner: false,
  },
  {
    name: 'Shared Sunny',
    category: 'generated',
    gender: 'female',
    accent: 'australian',
    age: 'young',
    language: 'en',
    owner: false,
  },
  {
    name: 'Shared Noir',
    category: 'professional',
    gender: 'male',
    accent: 'french',
    age: 'middle_aged',
    language: 'fr',
    owner: false,
  },
  {
    name: 'Shared Pep',
    category: 'professional',
    gender: 'female',
    accent: 'spanish',
    age: 'young',
    language: 'es',
    owner: false,
  },
];

export const SHARED_VOICES: readonly SharedVoice[] = SHARED_SEEDS.map((seed, i) => {
  const voice = buildVoice(seed, 100 + i, vendorCVoiceId(`shared:${seed.name}`));
  return {
    public_owner_id: `owner_${(i % 3) + 1}`,
    voice_id: voice.voice_id,
    name: seed.name,
    category: seed.category,
    language: seed.language,
    accent: seed.accent,
    gender: seed.gender,
    age: seed.age,
    descriptive: 'calm',
    use_case: 'narrative_story',
    description: voice.description ?? '',
    preview_url: voice.preview_url ?? '',
    date_unix: voice.created_at_unix,
    cloned_by_count: 100 * (i + 1),
    free_users_allowed: true,
    verified_languages: voice.verified_languages,
  };
});

/** A pronunciation dictionary as `GET /v1/pronunciation-dictionaries/{id}` answers. */
export interface VendorCDictionary {
  id: string;
  latest_version_id: string;
  latest_version_rules_num: number;
  name: string;
  permission_on_resource: string;
  created_by: string;
  creation_time_unix: number;
  archived_time_unix: number | null;
  description: string | null;
}

/** Dictionary ids the vendor does not know (any other id exists in every account, at its first version). */
export function isUnknownDictionary(id: string): boolean {
  return /^(bad|unknown)/.test(id);
}

interface AccountState {
  readonly added: VendorCVoice[];
  readonly settings: Map<string, VoiceSettings>;
  /** Versions added per dictionary (through the control API), after the first. */
  readonly dictionaryVersions: Map<string, number>;
}

/**
 * The voices of each account (a key id stands for one account): the shared base set, plus voices the
 * account added from the library, plus per-voice stored settings the account edited. Reset clears it.
 */
export class VoiceStore {
  private readonly accounts = new Map<string, AccountState>();

  private account(keyId: string): AccountState {
    let state = this.accounts.get(keyId);
    if (!state) {
      state = { added: [], settings: new Map(), dictionaryVersions: new Map() };
      this.accounts.set(keyId, state);
    }
    return state;
  }

  voices(keyId: string): VendorCVoice[] {
    return [...BASE_VOICES, ...(this.accounts.get(keyId)?.added ?? [])];
  }

  find(keyId: string, voiceId: string): VendorCVoice | undefined {
    return this.voices(keyId).find((v) => v.voice_id === voiceId);
  }

  settings(keyId: string, voiceId: string): VoiceSettings {
    return { ...(this.accounts.get(keyId)?.settings.get(voiceId) ?? DEFAULT_VOICE_SETTINGS) };
  }

  editSettings(keyId: string, voiceId: string, patch: Partial<VoiceSettings>): void {
    this.account(keyId).settings.set(voiceId, { ...this.settings(keyId, voiceId), ...patch });
  }

  /** The dictionary in this account, or undefined for one the vendor does not know. */
  dictionary(keyId: string, id: string): VendorCDictionary | undefined {
    if (isUnknownDictionary(id)) return undefined;
    const version = this.accounts.get(keyId)?.dictionaryVersions.get(id) ?? 0;
    return {
      id,
      latest_version_id: vendorCVoiceId(`dictionary:${keyId}:${id}:${version}`),
      latest_version_rules_num: 3 + version,
      name: `Dictionary ${id}`,
      permission_on_resource: 'admin',
      created_by: 'account',
      creation_time_unix: 1_700_000_000,
      archived_time_unix: null,
      description: null,
    };
  }

  /** A new version of the dictionary (as an edit of its rules at the vendor would make); returns its id. */
  addDictionaryVersion(keyId: string, id: string): string | undefined {
    if (isUnknownDictionary(id)) return undefined;
    const versions = this.account(keyId).dictionaryVersions;
    versions.set(id, (versions.get(id) ?? 0) + 1);
    return this.dictionary(keyId, id)?.latest_version_id;
  }

  addFromLibrary(keyId: string, shared: SharedVoice, newName: string): VendorCVoice {
    const account = this.account(keyId);
    const seed: VoiceSeed = {
      name: newName,
      category: shared.category,
      gender: shared.gender as VoiceSeed['gender'],
      accent: shared.accent,
      age: shared.age,
      language: shared.language,
      owner: false,
      fromLibrary: true,
    };
    const voice = buildVoice(
      seed,
      200 + account.added.length,
      vendorCVoiceId(`${keyId}:${shared.voice_id}:${account.added.length}`),
    );
    voice.sharing = {
      status: 'copied',
      original_voice_id: shared.voice_id,
      public_owner_id: shared.public_owner_id,
      name: shared.name,
    };
    account.added.push(voice);
    return voice;
  }

  clear(): void {
    this.accounts.clear();
  }
}
