import { isCanonicalCacheKey, isCanonicalOrgId } from '@router/contracts';
import { audioObjectName, parseCacheObjectName, wordsObjectName } from './cache-object-names';
import { DEFAULT_CACHE_SETTINGS, resolveCacheSettings } from './cache.settings';

const ORG = '0b6f2a64-5a8e-4d3c-9a41-2f7d1c0e9b11';
const KEY = 'ab'.repeat(32);

describe('cache object names', () => {
  it('names the audio and the timings sidecar under the org', () => {
    expect(audioObjectName(ORG, KEY)).toBe(`${ORG}/${KEY}.audio`);
    expect(wordsObjectName(ORG, KEY)).toBe(`${ORG}/${KEY}.words.json`);
  });

  it('parses both names back to their entry, and nothing else', () => {
    expect(parseCacheObjectName(audioObjectName(ORG, KEY))).toEqual({
      orgId: ORG,
      cacheKey: KEY,
      part: 'audio',
    });
    expect(parseCacheObjectName(wordsObjectName(ORG, KEY))).toEqual({
      orgId: ORG,
      cacheKey: KEY,
      part: 'words',
    });
    for (const name of [
      `${ORG}/${KEY}.mp3`,
      `${ORG}/${KEY}.audio.words.json`,
      `${ORG.toUpperCase()}/${KEY}.audio`,
      `${ORG}/${KEY.slice(1)}.audio`,
      `x/${ORG}/${KEY}.audio`,
      'stray/leftover.bin',
    ]) {
      expect(parseCacheObjectName(name)).toBeNull();
    }
  });

  it('refuses ids in any but their canonical form', () => {
    expect(isCanonicalOrgId(ORG)).toBe(true);
    expect(isCanonicalOrgId(ORG.toUpperCase())).toBe(false);
    expect(isCanonicalCacheKey(KEY)).toBe(true);
    expect(isCanonicalCacheKey(KEY.toUpperCase())).toBe(false);
    expect(() => audioObjectName(ORG.toUpperCase(), KEY)).toThrow(TypeError);
    expect(() => wordsObjectName(ORG, '../etc')).toThrow(TypeError);
  });
});

describe('cache settings', () => {
  it('defaults to a 2 s usage flush, hourly sweeps and a 15 min orphan grace', () => {
    expect(resolveCacheSettings({})).toEqual(DEFAULT_CACHE_SETTINGS);
    expect(DEFAULT_CACHE_SETTINGS).toMatchObject({
      usageFlushMs: 2000,
      sweepIntervalMs: 3_600_000,
      orphanGraceMs: 900_000,
    });
  });

  it('refuses values that are not whole, or out of range', () => {
    expect(() => resolveCacheSettings({ usageFlushMs: -1 })).toThrow('usageFlushMs');
    expect(() => resolveCacheSettings({ sweepIntervalMs: 1.5 })).toThrow('sweepIntervalMs');
    expect(() => resolveCacheSettings({ sweepBatchSize: 0 })).toThrow('sweepBatchSize');
    expect(resolveCacheSettings({ sweepIntervalMs: 0 }).sweepIntervalMs).toBe(0);
  });
});
