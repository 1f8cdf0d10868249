import type { ServerResponse } from 'node:http';
import { canonicalSettings, pieceCacheKey, type SynthesisSettings } from '@router/cache-keys';
import { RouterError, type SynthSettings } from '@router/contracts';
import type { Logger } from '@router/observability';
import {
  type PieceAudio,
  type PieceRequest,
  type PieceResolver,
  playReply,
  type StoredSettings,
} from '@router/pipeline';
import { isSpeakable, splitText } from '@router/text';
import { FORMAT_CONTENT_TYPES, type VendorDefinition } from '@router/vendors-core';
import type { OrgRetention } from './org-retention';
import { streamingWavHeader, WavSampleData } from './wav';

export interface SpeechServiceDeps {
  resolver: PieceResolver;
  retention: OrgRetention;
  storedSettings: StoredSettings;
  cacheKeySecret: string;
  lookAhead: number;
  logger: Logger;
}

/**
 * POST /v1/audio/speech once the body is valid: the input's pieces through the pipeline, streamed as they
 * resolve. An error before any audio is the envelope; after audio has started it can only abort the body.
 */
export class SpeechService {
  constructor(private readonly deps: SpeechServiceDeps) {}

  async speak(
    orgId: string,
    request: { def: VendorDefinition; settings: SynthSettings; input: string },
    res: ServerResponse,
  ): Promise<void> {
    const { def, settings } = request;
    const canonical = canonicalSettings(def, settings as SynthesisSettings);
    const [days, stored] = await Promise.all([
      this.deps.retention.days(orgId),
      this.deps.storedSettings.resolve(orgId, canonical),
    ]);
    const cache = days > 0 && stored.cacheable;
    const pieces: PieceRequest[] = splitText(request.input, def.splitter)
      .filter((text) => isSpeakable(text, def.unspeakable))
      .map((text) => ({
        orgId,
        settings: canonical,
        text,
        cache,
        cacheKey: pieceCacheKey(this.deps.cacheKeySecret, {
          orgId,
          settings: canonical,
          text,
          storedSettingsFingerprint: stored.fingerprint,
        }),
      }));

    const reply = playReply(this.deps.resolver, pieces, this.deps.lookAhead);
    let current: PieceAudio | undefined;
    // Once the client has gone, no further piece is asked for; takes already running finish at the workers.
    let left = false;
    const clientGone = new Promise<'gone'>((resolve) =>
      res.once('close', () => {
        left = true;
        resolve('gone');
      }),
    );
    const gone = (): boolean => left || res.destroyed;
    try {
      let next = await reply.next(); // failures of the first piece still get the envelope
      if (!res.headersSent)
        res.writeHead(200, {
          'content-type': FORMAT_CONTENT_TYPES[settings.format] ?? 'application/octet-stream',
        });
      if (settings.format === 'wav') await write(res, streamingWavHeader(settings.sampleRate));
      while (!next.done && !gone()) {
        current = next.value;
        const samples = settings.format === 'wav' ? new WavSampleData() : undefined;
        const chunks = current.chunks[Symbol.asyncIterator]();
        for (;;) {
          const chunk = await Promise.race([chunks.next(), clientGone]);
          if (chunk === 'gone' || chunk.done) break;
          const out = samples ? samples.push(chunk.value) : chunk.value;
          if (out.length > 0 && (await Promise.race([write(res, out), clientGone])) === 'gone') break;
        }
        if (gone()) break;
        next = await Promise.race([
          reply.next(),
          clientGone.then(() => ({ done: true, value: undefined }) as const),
        ]);
      }
      if (!res.destroyed) res.end();
    } catch (error) {
      if (!res.headersSent) throw error instanceof RouterError ? error : RouterError.internal(error);
      this.deps.logger.warn(
        { orgId, vendor: def.id, code: error instanceof RouterError ? error.code : 'internal' },
        'speech aborted after audio started',
      );
      res.destroy(error instanceof Error ? error : undefined);
    } finally {
      current?.cancel();
      await reply.return(undefined);
    }
  }
}

function write(res: ServerResponse, chunk: Buffer): Promise<'written'> {
  return new Promise((resolve) => {
    if (res.write(chunk)) resolve('written');
    else res.once('drain', () => resolve('written'));
  });
}
