import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { checkKey, requestKey, simKeyId } from '../kit/sim-keys';
import {
  authProblem,
  checkString,
  dictionaryNotFound,
  isObject,
  MODEL_CHARACTER_LIMITS,
  queryBoolean,
  queryInteger,
  settingsIssues,
  vendorC,
  voiceNotFound,
  VENDOR_C_KEY,
} from '@router/vendor-c';
import type { SimKit } from '../kit/sim-vendor';
import { sendSchemaIssues, sendVendorCProblem } from './vendor-c.replies';
import {
  DEFAULT_VOICE_SETTINGS,
  SHARED_VOICES,
  type VendorCVoice,
  type VoiceSettings,
  type VoiceStore,
} from './vendor-c.voices';

/** The key check every route makes first; returns the account's key id, or answers the refusal. */
export function vendorCAccount(exchange: HttpExchange): { key: string; keyId: string } | undefined {
  const key = requestKey(VENDOR_C_KEY, exchange);
  const check = checkKey(key);
  if (check !== 'ok') {
    sendVendorCProblem(exchange, authProblem(check));
    return undefined;
  }
  return { key: key as string, keyId: simKeyId(key as string) };
}

const V2_VOICE_TYPES = ['personal', 'community', 'default', 'workspace', 'non-default', 'saved'];
const CATEGORIES = ['premade', 'cloned', 'generated', 'professional'];

function isLibraryVoice(voice: VendorCVoice): boolean {
  return voice.sharing?.status === 'copied';
}

function matchesVoiceType(voice: VendorCVoice, type: string): boolean {
  switch (type) {
    case 'default':
      return voice.category === 'premade';
    case 'community':
      return isLibraryVoice(voice);
    case 'personal':
    case 'workspace':
      return voice.is_owner;
    default: // non-default, saved
      return voice.category !== 'premade';
  }
}

interface PageToken {
  offset: number;
}

function readPageToken(raw: string | null): PageToken | undefined | 'invalid' {
  if (raw === null || raw === '') return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (isObject(parsed) && Number.isInteger(parsed['offset']) && (parsed['offset'] as number) >= 0) {
      return { offset: parsed['offset'] as number };
    }
  } catch {
    // falls through to invalid
  }
  return 'invalid';
}

export function vendorCVoiceRoutes(kit: SimKit, store: VoiceStore): HttpRoute[] {
  const read = (what: string, key: string): void => kit.state.recordRead('vendor_c', what, key);
  return [
    {
      method: 'GET',
      path: '/v1/voices',
      handle(exchange) {
        const account = vendorCAccount(exchange);
        if (!account) return;
        const legacy = queryBoolean(exchange.query, 'show_legacy', false);
        if (legacy.issues.length > 0) return sendSchemaIssues(exchange, legacy.issues);
        const voices = store.voices(account.keyId).filter((v) => legacy.value || !v.is_legacy);
        read('voices', account.key);
        exchange.sendJson(200, { voices });
      },
    },
    {
      method: 'GET',
      path: '/v2/voices',
      handle(exchange) {
        const account = vendorCAccount(exchange);
        if (!account) return;
        const q = exchange.query;
        const pageSize = queryInteger(q, 'page_size', 10, 1, 100);
        const includeTotal = queryBoolean(q, 'include_total_count', true);
        const issues = [...pageSize.issues, ...includeTotal.issues];
        const sort = q.get('sort') ?? 'created_at_unix';
        if (!['created_at_unix', 'name'].includes(sort))
          issues.push({ loc: ['query', 'sort'], msg: 'invalid sort', type: 'type_error.enum' });
        const direction = q.get('sort_direction') ?? 'desc';
        if (!['asc', 'desc'].includes(direction)) {
          issues.push({
            loc: ['query', 'sort_direction'],
            msg: 'invalid sort direction',
            type: 'type_error.enum',
          });
        }
        const voiceType = q.get('voice_type');
        if (voiceType !== null && !V2_VOICE_TYPES.includes(voiceType)) {
          issues.push({ loc: ['query', 'voice_type'], msg: 'invalid voice type', type: 'type_error.enum' });
        }
        const category = q.get('category');
        if (category !== null && !CATEGORIES.includes(category)) {
          issues.push({ loc: ['query', 'category'], msg: 'invalid category', type: 'type_error.enum' });
        }
        const token = readPageToken(q.get('next_page_token'));
        if (token === 'invalid')
          issues.push({ loc: ['query', 'next_page_token'], msg: 'invalid page token', type: 'value_error' });
        if (issues.length > 0) return sendSchemaIssues(exchange, issues);
        const search = q.get('search')?.toLowerCase();
        const matching = store
          .voices(account.keyId)
          .filter((v) => !v.is_legacy)
          .filter((v) => voiceType === null || matchesVoiceType(v, voiceType))
          .filter((v) => category === null || v.category === category)
          .filter(
            (v) =>
              !search ||
              v.name.toLowerCase().includes(search) ||
              (v.description ?? '').toLowerCase().includes(search) ||
              Object.values(v.labels).some((l) => l.toLowerCase().includes(search)),
          )
          .sort((a, b) => {
            const order =
              sort === 'name' ? a.name.localeCompare(b.name) : a.created_at_unix - b.created_at_unix;
            return direction === 'asc' ? order : -order;
          });
        const offset = token && token !== 'invalid' ? token.offset : 0;
        const size = pageSize.value ?? 10;
        const page = matching.slice(offset, offset + size);
        const hasMore = offset + size < matching.length;
        read('voices', account.key);
        exchange.sendJson(200, {
          voices: page,
          has_more: hasMore,
          total_count: includeTotal.value ? matching.length : null,
          next_page_token: hasMore
            ? Buffer.from(JSON.stringify({ offset: offset + size })).toString('base64url')
            : null,
        });
      },
    },
    {
      method: 'GET',
      path: '/v1/voices/settings/default',
      handle(exchange) {
        if (!vendorCAccount(exchange)) return;
        exchange.sendJson(200, DEFAULT_VOICE_SETTINGS);
      },
    },
    {
      method: 'GET',
      path: '/v1/voices/:voice_id',
      handle(exchange) {
        const account = vendorCAccount(exchange);
        if (!account) return;
        const voiceId = exchange.params['voice_id'] ?? '';
        const voice = store.find(account.keyId, voiceId);
        if (!voice) return sendVendorCProblem(exchange, voiceNotFound(voiceId));
        const withSettings = queryBoolean(exchange.query, 'with_settings', false);
        if (withSettings.issues.length > 0) return sendSchemaIssues(exchange, withSettings.issues);
        exchange.sendJson(200, {
          ...voice,
          settings: withSettings.value ? store.settings(account.keyId, voiceId) : null,
        });
      },
    },
    {
      method: 'GET',
      path: '/v1/voices/:voice_id/settings',
      handle(exchange) {
        const account = vendorCAccount(exchange);
        if (!account) return;
        const voiceId = exchange.params['voice_id'] ?? '';
        if (!store.find(account.keyId, voiceId)) return sendVendorCProblem(exchange, voiceNotFound(voiceId));
        read('voice-settings', account.key);
        exchange.sendJson(200, store.settings(account.keyId, voiceId));
      },
    },
    {
      method: 'POST',
      path: '/v1/voices/:voice_id/settings/edit',
      handle(exchange) {
        const account = vendorCAccount(exchange);
        if (!account) return;
        const voiceId = exchange.params['voice_id'] ?? '';
        const body = exchange.json();
        if (!isObject(body))
          return sendSchemaIssues(exchange, [
            { loc: ['body'], msg: 'field required', type: 'value_error.missing' },
          ]);
        const issues = settingsIssues(body, ['body']);
        if (issues.length > 0) return sendSchemaIssues(exchange, issues);
        if (!store.find(account.keyId, voiceId)) return sendVendorCProblem(exchange, voiceNotFound(voiceId));
        const patch: Partial<VoiceSettings> = {};
        for (const name of Object.keys(DEFAULT_VOICE_SETTINGS) as (keyof VoiceSettings)[]) {
          if (body[name] !== undefined && body[name] !== null) Object.assign(patch, { [name]: body[name] });
        }
        store.editSettings(account.keyId, voiceId, patch);
        exchange.sendJson(200, { status: 'ok' });
      },
    },
    {
      method: 'GET',
      path: '/v1/pronunciation-dictionaries/:dictionary_id',
      handle(exchange) {
        const account = vendorCAccount(exchange);
        if (!account) return;
        const id = exchange.params['dictionary_id'] ?? '';
        const dictionary = store.dictionary(account.keyId, id);
        if (!dictionary) return sendVendorCProblem(exchange, dictionaryNotFound(id));
        read('dictionary', account.key);
        exchange.sendJson(200, dictionary);
      },
    },
    {
      method: 'GET',
      path: '/v1/shared-voices',
      handle(exchange) {
        if (!vendorCAccount(exchange)) return;
        const pageSize = queryInteger(exchange.query, 'page_size', 30, 1, 100);
        const page = queryInteger(exchange.query, 'page', 0, 0, 10_000);
        const issues = [...pageSize.issues, ...page.issues];
        if (issues.length > 0) return sendSchemaIssues(exchange, issues);
        const search = exchange.query.get('search')?.toLowerCase();
        const matching = SHARED_VOICES.filter((v) => !search || v.name.toLowerCase().includes(search));
        const size = pageSize.value ?? 30;
        const start = (page.value ?? 0) * size;
        exchange.sendJson(200, {
          voices: matching.slice(start, start + size),
          has_more: start + size < matching.length,
          last_sort_id: null,
        });
      },
    },
    {
      method: 'POST',
      path: '/v1/voices/add/:public_owner_id/:voice_id',
      handle(exchange) {
        const account = vendorCAccount(exchange);
        if (!account) return;
        const body = exchange.json();
        const issues = checkString(isObject(body) ? body['new_name'] : undefined, ['body', 'new_name'], {
          required: true,
          minLength: 1,
        });
        if (issues.length > 0) return sendSchemaIssues(exchange, issues);
        const voiceId = exchange.params['voice_id'] ?? '';
        const shared = SHARED_VOICES.find(
          (v) => v.voice_id === voiceId && v.public_owner_id === exchange.params['public_owner_id'],
        );
        if (!shared) return sendVendorCProblem(exchange, voiceNotFound(voiceId));
        const added = store.addFromLibrary(account.keyId, shared, (body as { new_name: string }).new_name);
        exchange.sendJson(200, { voice_id: added.voice_id });
      },
    },
    {
      method: 'GET',
      path: '/v1/models',
      handle(exchange) {
        if (!vendorCAccount(exchange)) return;
        exchange.sendJson(
          200,
          vendorC.catalogue.models.map((model) => {
            const dialogue = vendorC.modelTraits[model.id]?.dialogue === true;
            return {
              model_id: model.id,
              name: model.id.replace(/_/g, ' '),
              can_do_text_to_speech: true,
              can_do_voice_conversion: false,
              can_use_style: true,
              can_use_speaker_boost: !dialogue,
              serves_pro_voices: true,
              requires_alpha_access: false,
              max_characters_request_free_user: 2500,
              max_characters_request_subscribed_user: MODEL_CHARACTER_LIMITS[model.id] ?? 10_000,
              languages: model.languages.map((code) => ({ language_id: code, name: code })),
              description: dialogue ? 'Dialogue model' : 'Speech model',
            };
          }),
        );
      },
    },
  ];
}

/**
 * The test controls of vendor_c's account state (under `/__sim/vendor_c`): a voice's stored settings and a
 * new version of a dictionary, as edits at the vendor would make them. Accounts are named by key id.
 */
export function vendorCControlRoutes(store: VoiceStore): HttpRoute[] {
  const keyIdOf = (exchange: HttpExchange): string | undefined => {
    const body = exchange.json();
    const keyId = isObject(body) ? body['key_id'] : undefined;
    if (typeof keyId === 'string' && keyId !== '') return keyId;
    exchange.sendJson(400, { error: 'key_id must be a non-empty string' });
    return undefined;
  };
  return [
    {
      method: 'PUT',
      path: '/voices/:voice_id/settings',
      handle(exchange) {
        const keyId = keyIdOf(exchange);
        if (keyId === undefined) return;
        const settings = (exchange.json() as Record<string, unknown>)['settings'];
        const issues = isObject(settings) ? settingsIssues(settings, ['settings']) : [];
        if (!isObject(settings) || issues.length > 0) {
          return exchange.sendJson(400, { error: 'settings must be valid voice settings', issues });
        }
        const voiceId = exchange.params['voice_id'] ?? '';
        if (!store.find(keyId, voiceId)) return exchange.sendJson(404, { error: 'no such voice' });
        store.editSettings(keyId, voiceId, settings);
        exchange.sendJson(200, { settings: store.settings(keyId, voiceId) });
      },
    },
    {
      method: 'POST',
      path: '/dictionaries/:dictionary_id/versions',
      handle(exchange) {
        const keyId = keyIdOf(exchange);
        if (keyId === undefined) return;
        const version = store.addDictionaryVersion(keyId, exchange.params['dictionary_id'] ?? '');
        if (version === undefined)
          return exchange.sendJson(404, { error: 'the vendor knows no such dictionary' });
        exchange.sendJson(201, { version_id: version });
      },
    },
  ];
}
