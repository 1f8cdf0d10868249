import {
  cacheObjectNames,
  isCanonicalCacheKey,
  isCanonicalOrgId,
  newTakeId,
  takeWrittenAt,
  wordsObjectNameOf,
} from '@router/contracts';
import { parseCacheObjectName } from './cache-object-names';
import { DEFAULT_CACHE_SETTINGS, resolveCacheSettings } from './cache.settings';

const ORG = '0b6f2a64-5a8e-4d3c-9a41-2f7d1c0e9b11';
const KEY = 'ab'.repeat(32);
const WRITTEN_AT = Date.parse('2026-11-24T10:00:00.123Z');
const TAKE = `${WRITTEN_AT}-0123456789ab`;

describe('cache object names', () => {
  it('names a take’s audio and its timings under the org and key, by the take', () => {
    const names = cacheObjectNames(ORG, KEY, TAKE);
    expect(names).toEqual({
      audio: `${ORG}/${KEY}/${WRITTEN_AT}-0123456789ab.audio`,
      words: `${ORG}/${KEY}/${WRITTEN_AT}-0123456789ab.words.json`,
    });
    expect(wordsObjectNameOf(names.audio)).toBe(names.words);
    expect(takeWrittenAt(TAKE)).toBe(WRITTEN_AT);
    expect(takeWrittenAt('17-0123456789ab')).toBeNull();
    const fresh = [newTakeId(WRITTEN_AT), newTakeId(WRITTEN_AT)];
    expect(fresh.map(takeWrittenAt)).toEqual([WRITTEN_AT, WRITTEN_AT]);
    expect(fresh[0]).not.toBe(fresh[1]);
  });

  it('parses both names back to their take, and nothing else', () => {
    const names = cacheObjectNames(ORG, KEY, TAKE);
    const take = { orgId: ORG, cacheKey: KEY, audio: names.audio, writtenAt: WRITTEN_AT };
    expect(parseCacheObjectName(names.audio)).toEqual({ ...take, part: 'audio' });
    expect(parseCacheObjectName(names.words)).toEqual({ ...take, part: 'words' });
    for (const name of [
      `${ORG}/${KEY}.audio`,
      `${ORG}/${KEY}/${TAKE}.mp3`,
      `${ORG}/${KEY}/${TAKE}.audio.words.json`,
      `${ORG.toUpperCase()}/${KEY}/${TAKE}.audio`,
      `${ORG}/${KEY.slice(1)}/${TAKE}.audio`,
      `${ORG}/${KEY}/${TAKE.toUpperCase()}.audio`,
      `${ORG}/${KEY}/1764-0123456789ab.audio`,
      `x/${ORG}/${KEY}/${TAKE}.audio`,
      'stray/leftover.bin',
    ]) {
      expect(parseCacheObjectName(name)).toBeNull();
    }
  });

  it('knows ids only in their canonical form', () => {
    expect(isCanonicalOrgId(ORG)).toBe(true);
    expect(isCanonicalOrgId(ORG.toUpperCase())).toBe(false);
    expect(isCanonicalCacheKey(KEY)).toBe(true);
    expect(isCanonicalCacheKey(KEY.toUpperCase())).toBe(false);
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
