import {
  canonicalSettings,
  pieceCacheKey,
  sentenceTextKey,
  type SynthesisSettings,
} from '@router/cache-keys';
import type { SynthSettings } from '@router/contracts';
import { isSpeakable } from '@router/text';
import type { VendorDefinition } from '@router/vendors-core';
import type { OrgRetention } from './org-retention';
import type { PieceRequest } from './piece-resolver';
import type { StoredSettings } from './stored-settings';

/** How the pieces of one org's text are keyed and cached under one set of settings. */
export interface ReplyPlan {
  readonly def: VendorDefinition;
  /** The canonical settings every piece is sent and keyed with. */
  readonly settings: SynthSettings;
  /** The piece for a text the splitter released, or null when the vendor cannot speak it (skipped). */
  piece(text: string): PieceRequest | null;
}

export interface ReplyPlannerDeps {
  retention: OrgRetention;
  /** Settings stored at the vendor (a voice's settings, an unversioned dictionary) as a key fingerprint. */
  storedSettings: StoredSettings;
  cacheKeySecret: string;
}

/**
 * The one place a surface's validated settings become pieces: canonical settings, the org's cache switch
 * (retention 0 reads and writes nothing; nor does a dictionary the router has not read yet), the keyed hash
 * of each piece (with the fingerprint of settings stored at the vendor), and the vendor's unspeakable rule.
 * Every surface that speaks pieces (native HTTP, /v1/stream, the mirrors' sockets) goes through it, so equal
 * settings and text give one cache entry whichever asked.
 */
export class ReplyPlanner {
  constructor(private readonly deps: ReplyPlannerDeps) {}

  async plan(orgId: string, def: VendorDefinition, settings: SynthSettings): Promise<ReplyPlan> {
    const canonical = canonicalSettings(def, settings as SynthesisSettings);
    const [days, stored] = await Promise.all([
      this.deps.retention.days(orgId),
      this.deps.storedSettings.resolve(orgId, canonical),
    ]);
    const cache = days > 0 && stored.cacheable;
    const secret = this.deps.cacheKeySecret;
    return {
      def,
      settings: canonical,
      piece: (text) =>
        isSpeakable(text, def.unspeakable)
          ? {
              orgId,
              settings: canonical,
              text,
              cache,
              finishesOnInterrupt: def.finishesTakeOnInterrupt,
              textKey: sentenceTextKey(secret, { orgId, text }),
              cacheKey: pieceCacheKey(secret, {
                orgId,
                settings: canonical,
                text,
                storedSettingsFingerprint: stored.fingerprint,
              }),
            }
          : null,
    };
  }
}
