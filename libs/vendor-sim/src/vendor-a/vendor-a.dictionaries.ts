import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { checkKey, requestKey, simKeyId } from '../kit/sim-keys';
import type { SimKit } from '../kit/sim-vendor';
import { VENDOR_A_AUTH_PROBLEM, VENDOR_A_KEY, VENDOR_A_UNKNOWN_DICTIONARY } from '@router/vendor-a';
import { sendVendorAError } from './vendor-a.errors';

export interface DictionaryEntry {
  readonly word: string;
  readonly pronunciation: string;
}

/** A pronunciation dictionary as `GET /pronunciation-dictionaries/{dict_id}` answers. */
export interface VendorADictionary {
  readonly dict_id: string;
  readonly entries: readonly DictionaryEntry[];
  readonly updated_at: string;
}

/** Dictionary ids the vendor does not know: synthesis reports an error and still speaks; reads are 404. */
export function isUnknownDictId(id: string): boolean {
  return /^(bad|unknown)/.test(id);
}

const FIRST_ENTRIES: readonly DictionaryEntry[] = [{ word: 'router', pronunciation: 'raʊtər' }];

/**
 * The dictionaries of each account (a key id stands for one): every id the vendor knows exists with a first
 * set of entries until a test replaces them through the control API. Reset clears the replacements.
 */
export class VendorADictionaries {
  private readonly edited = new Map<string, VendorADictionary>();

  find(keyId: string, dictId: string): VendorADictionary | undefined {
    if (isUnknownDictId(dictId)) return undefined;
    return (
      this.edited.get(`${keyId}:${dictId}`) ?? {
        dict_id: dictId,
        entries: FIRST_ENTRIES,
        updated_at: '2026-01-01T00:00:00Z',
      }
    );
  }

  replace(keyId: string, dictId: string, entries: readonly DictionaryEntry[]): VendorADictionary | undefined {
    if (isUnknownDictId(dictId)) return undefined;
    const dictionary = { dict_id: dictId, entries: [...entries], updated_at: new Date().toISOString() };
    this.edited.set(`${keyId}:${dictId}`, dictionary);
    return dictionary;
  }

  clear(): void {
    this.edited.clear();
  }
}

/** `GET /pronunciation-dictionaries/{dict_id}` with the account's key. */
export function vendorADictionaryRoutes(kit: SimKit, dictionaries: VendorADictionaries): HttpRoute[] {
  return [
    {
      method: 'GET',
      path: '/pronunciation-dictionaries/:dict_id',
      handle(exchange) {
        const key = requestKey(VENDOR_A_KEY, exchange);
        if (checkKey(key) !== 'ok') return sendVendorAError(exchange, VENDOR_A_AUTH_PROBLEM);
        const dictId = exchange.params['dict_id'] ?? '';
        const dictionary = dictionaries.find(simKeyId(key as string), dictId);
        if (!dictionary) return sendVendorAError(exchange, VENDOR_A_UNKNOWN_DICTIONARY);
        kit.state.recordRead('vendor_a', 'dictionary', key);
        exchange.sendJson(200, dictionary);
      },
    },
  ];
}

function isEntry(value: unknown): value is DictionaryEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry['word'] === 'string' && typeof entry['pronunciation'] === 'string';
}

/** The test control (under `/__sim/vendor_a`): replace a dictionary's entries in an account. */
export function vendorAControlRoutes(dictionaries: VendorADictionaries): HttpRoute[] {
  return [
    {
      method: 'PUT',
      path: '/dictionaries/:dict_id',
      handle(exchange: HttpExchange) {
        const body = exchange.json() as Record<string, unknown> | undefined;
        const keyId = body?.['key_id'];
        const entries = body?.['entries'];
        if (typeof keyId !== 'string' || keyId === '' || !Array.isArray(entries) || !entries.every(isEntry)) {
          return exchange.sendJson(400, { error: 'body must be {key_id, entries: [{word, pronunciation}]}' });
        }
        const dictionary = dictionaries.replace(keyId, exchange.params['dict_id'] ?? '', entries);
        if (!dictionary) return exchange.sendJson(404, { error: 'the vendor knows no such dictionary' });
        exchange.sendJson(200, { dictionary });
      },
    },
  ];
}
