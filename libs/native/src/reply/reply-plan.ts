import { canonicalSettings, pieceCacheKey, type SynthesisSettings } from '@router/cache-keys';
import type { SynthSettings } from '@router/contracts';
import type { PieceRequest } from '@router/pipeline';
import { isSpeakable } from '@router/text';
import type { VendorDefinition } from '@router/vendors-core';
import type { OrgRetention } from './org-retention';

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
  cacheKeySecret: string;
}

/**
 * The one place a surface's validated settings become pieces: canonical settings, the org's cache switch
 * (retention 0 reads and writes nothing), the keyed hash of each piece, and the vendor's unspeakable rule.
 * Every native surface goes through it, so equal settings and text give one cache entry whichever asked.
 */
export class ReplyPlanner {
  constructor(private readonly deps: ReplyPlannerDeps) {}

  async plan(orgId: string, def: VendorDefinition, settings: SynthSettings): Promise<ReplyPlan> {
    const cache = (await this.deps.retention.days(orgId)) > 0;
    const canonical = canonicalSettings(def, settings as SynthesisSettings);
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
              cacheKey: pieceCacheKey(secret, { orgId, settings: canonical, text }),
            }
          : null,
    };
  }
}
