export { canonicalJson, canonicalValue } from './canonical-json';
export { canonicalSettings, type CanonicalSettings, type SynthesisSettings } from './canonical-settings';
export {
  CACHE_KEY_VERSION,
  pieceCacheKey,
  requestCacheKey,
  requestSealKey,
  sentenceTextKey,
  storedSettingsFingerprint,
  type CacheKeySecret,
  type PieceKeyInput,
  type RequestKeyInput,
} from './cache-key';
export * from './sealed-blob';
