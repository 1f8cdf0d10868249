import type { Bus } from '@router/bus';
import { sentenceTextKey } from '@router/cache-keys';
import { cacheEvictV1, type CacheEvictRequest, RouterError } from '@router/contracts';
import type { PieceRequest, ReplyPlanner } from '@router/pipeline';
import { jsonObjectOf } from '@router/service-kit';
import { splitText } from '@router/text';
import { parseSpeechBody } from '../speech/speech-body';

/** The longest sentence text an eviction takes: the speech body's own input limit. */
export const EVICTION_TEXT_LIMIT = 20_000;

export interface CacheEvictionDeps {
  bus: Bus;
  planner: ReplyPlanner;
  cacheKeySecret: string;
}

/** What was asked to go: exactly one of the three. */
export type EvictionTarget =
  { readonly request: unknown } | { readonly sentence: string } | { readonly all: true };

/**
 * An org's evictions (`POST /v1/cache/evict`, `DELETE /v1/cache`, the admin API and CLI; docs/cache-eviction.md):
 * the entries a speech request would play (`request`, keyed exactly as the speech endpoint keys its sentences),
 * every entry of a sentence whatever it was said with (`sentence`), or all of the org's entries (`all`). The
 * index rows go at once and the serving apps' hot tiers within their bus delivery (`cache.evict.v1` at
 * cache-service); the answer counts the entries removed.
 */
export class CacheEviction {
  constructor(private readonly deps: CacheEvictionDeps) {}

  /** A request body read as one target, refused with `bad_request` naming the field or rule. */
  static parse(body: unknown): EvictionTarget {
    const fields = jsonObjectOf(body, 'the body');
    const named = Object.keys(fields);
    const unknown = named.find((name) => !['request', 'sentence', 'all'].includes(name));
    if (unknown !== undefined) {
      throw RouterError.badRequest(
        `unknown field ${JSON.stringify(unknown)}: an eviction names exactly one of request, sentence, all`,
      );
    }
    if (named.length !== 1) {
      throw RouterError.badRequest('an eviction names exactly one of request, sentence, all');
    }
    if ('all' in fields) {
      if (fields['all'] !== true) throw RouterError.badRequest('all must be true');
      return { all: true };
    }
    if ('sentence' in fields) {
      const sentence = fields['sentence'];
      if (typeof sentence !== 'string' || sentence.trim() === '' || sentence.length > EVICTION_TEXT_LIMIT) {
        throw RouterError.badRequest(
          `sentence must be a text of 1 to ${EVICTION_TEXT_LIMIT} characters with something besides whitespace`,
        );
      }
      return { sentence };
    }
    return { request: fields['request'] };
  }

  /** Evicts the target's entries of `orgId`; resolves to how many entries were removed. */
  async evict(orgId: string, target: EvictionTarget): Promise<number> {
    const { evicted } = await this.deps.bus.request(cacheEvictV1, await this.selection(orgId, target));
    return evicted;
  }

  private async selection(orgId: string, target: EvictionTarget): Promise<CacheEvictRequest> {
    if ('all' in target) return { orgId, all: true };
    if ('sentence' in target) {
      // The text as given and each piece either splitter makes of it: one sentence, or a reply pasted whole.
      const texts = new Set([
        target.sentence,
        ...splitText(target.sentence, 'router', EVICTION_TEXT_LIMIT),
        ...splitText(target.sentence, 'standard', EVICTION_TEXT_LIMIT),
      ]);
      const secret = this.deps.cacheKeySecret;
      return {
        orgId,
        textKeys: [...new Set([...texts].map((text) => sentenceTextKey(secret, { orgId, text })))],
      };
    }
    const { def, settings, input } = parseRequestField(target.request);
    const plan = await this.deps.planner.plan(orgId, def, settings);
    const keys = splitText(input, def.splitter, def.maxInputChars)
      .map((text) => plan.piece(text))
      .filter((piece): piece is PieceRequest => piece !== null)
      .map((piece) => piece.cacheKey);
    return { orgId, cacheKeys: [...new Set(keys)] };
  }
}

/** The `request` field, read as the speech endpoint reads its body; its refusals name the field inside it. */
function parseRequestField(request: unknown): ReturnType<typeof parseSpeechBody> {
  try {
    return parseSpeechBody(request);
  } catch (error) {
    if (error instanceof RouterError && error.code === 'bad_request') {
      throw RouterError.badRequest(`request: ${error.message}`);
    }
    throw error;
  }
}
