import { randomBytes } from 'node:crypto';
import { RouterError } from '@router/contracts';
import type { KeyCheck } from '@router/dashboard-types';
import type { PieceRequest, PieceResolver, ReplyPlanner } from '@router/pipeline';
import type { VendorAdapter } from '@router/vendors-core';
import { keyFailureInWords } from '@router/provider-keys';
import { findVendor } from '@router/vendors';
import { parseSpeechBody } from '../speech/speech-body';
import type { VoicesService } from '../voices/voices.service';

export interface ProviderKeyCheckDeps {
  voices: VoicesService;
  upstream: (vendor: string) => VendorAdapter | undefined;
  planner: ReplyPlanner;
  resolver: PieceResolver;
  /** A test the vendor has not answered within this fails as a timeout (the voice list's own bound). */
  timeoutMs: number;
}

/** The one word a synthesis test speaks: a few characters, billed by the vendor like any other. */
export const CHECK_TEXT = 'Hello.';

/**
 * "Test this key" (`POST /v1/provider-keys/{provider}/test`): the cheapest vendor call that uses the org's stored
 * key. A vendor whose voices are read live with the key is asked for its voice list, as `GET /v1/voices` asks
 * (nothing billed); otherwise one word is spoken through the normal path (planner, worker) with the first voice
 * of the catalogue or of the vendor's public list, never cached and never read from the cache, so every test
 * reaches the vendor. A vendor with no voice the router knows of (vendor_h, vendor_i) is not called, and the
 * answer says so.
 */
export class ProviderKeyCheck {
  constructor(private readonly deps: ProviderKeyCheckDeps) {}

  async check(orgId: string, provider: string, signal: AbortSignal): Promise<KeyCheck> {
    const def = findVendor(provider);
    if (!def) throw RouterError.badRequest(`provider ${provider} is not a vendor`);
    const adapter = this.deps.upstream(provider);
    // A list read with the key is the cheapest test; a public list (or none) says nothing of the key.
    const keyedList = def.voices === null && adapter?.listVoices !== undefined && !adapter.voiceListIsPublic;
    try {
      if (keyedList) {
        const { voices } = await this.deps.voices.list(orgId, { provider: def.id }, signal);
        return {
          ok: true,
          check: 'voice_list',
          outcome:
            `${provider} accepted the key: it listed ${voices.length} voice${voices.length === 1 ? '' : 's'} ` +
            'for it (nothing billed).',
        };
      }
      const voice =
        def.voices?.[0] ??
        (adapter?.listVoices
          ? (await this.deps.voices.list(orgId, { provider: def.id }, signal)).voices[0]
          : undefined);
      if (voice === undefined) {
        return {
          ok: false,
          check: 'none',
          code: 'not_checked',
          outcome:
            `${provider} has no call the router can make without one of your voices, so the key was not tried. ` +
            'Speak a sentence with it to see whether it works.',
        };
      }
      const model = voice.models[0] ?? def.catalogue.models[0]?.id;
      const language = def.language === 'required' ? (voice.languages[0] ?? null) : null;
      const { settings } = parseSpeechBody({
        model: `${provider}/${model}`,
        voice: voice.id,
        input: CHECK_TEXT,
        ...(language ? { language } : {}),
      });
      const plan = await this.deps.planner.plan(orgId, def, settings);
      const piece = plan.piece(CHECK_TEXT);
      if (piece === null) throw RouterError.internal(new Error(`${provider} cannot speak the test word`));
      // A random key and no cache: neither looked up nor shared nor stored, so the vendor is always asked.
      const bytes = await orTimeout(
        this.audioBytes({ ...piece, cache: false, cacheKey: randomBytes(32).toString('hex') }),
        this.deps.timeoutMs,
        provider,
      );
      return {
        ok: true,
        check: 'synthesis',
        outcome:
          `${provider} accepted the key: it spoke the test word "${CHECK_TEXT}" (${CHECK_TEXT.length} characters, ` +
          `billed by ${provider}) as ${bytes.toLocaleString('en')} bytes of audio.`,
      };
    } catch (error) {
      const failure = RouterError.unexpected(error);
      return {
        ok: false,
        check: keyedList ? 'voice_list' : 'synthesis',
        code: failure.code,
        ...(failure.providerStatus !== undefined ? { provider_status: failure.providerStatus } : {}),
        outcome: keyFailureInWords(provider, failure),
      };
    }
  }

  private async audioBytes(piece: PieceRequest): Promise<number> {
    const audio = await this.deps.resolver.resolve(piece);
    let bytes = 0;
    for await (const chunk of audio.chunks) bytes += chunk.length;
    return bytes;
  }
}

/** The promise, or a `provider_timeout` once `ms` have passed first. */
async function orTimeout<T>(promise: Promise<T>, ms: number, provider: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new RouterError('provider_timeout', `${provider} did not answer the test within ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
