import type { PieceRequest } from '../piece-resolver';

/** A piece for the pipeline's specs: raw 8 kHz PCM from a made-up vendor_a model, cached. */
export function pieceOf(text: string, overrides: Partial<PieceRequest> = {}): PieceRequest {
  return {
    orgId: '00000000-0000-4000-8000-000000000001',
    text,
    cacheKey: 'c'.repeat(64),
    cache: true,
    finishesOnInterrupt: false,
    settings: {
      vendor: 'vendor_a',
      model: 'm',
      voice: 'v',
      language: null,
      speed: null,
      sampleRate: 8000,
      format: 'pcm',
      options: {},
    },
    ...overrides,
  };
}
