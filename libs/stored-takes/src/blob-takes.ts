import type { BlobPutMeta, BlobStore } from '@router/blob-store';
import {
  type CachedTake,
  cacheObjectNames,
  isCanonicalCacheKey,
  isCanonicalOrgId,
  type ResponseHead,
  responseHead,
  takeWrittenAt,
} from '@router/contracts';
import { CacheUnreadableError, withinDeadline } from './stored-take';

/** The audio blob's user metadata that holds a whole request's response head (base64url JSON). */
const HEAD_METADATA = 'router-head';
/** S3 keeps 2 KB of user metadata per object: a larger head is not kept (that take is then found by its row only). */
const MAX_HEAD_METADATA = 1800;

const AUDIO = '.audio';
const WORDS = '.words.json';

/**
 * What a take's audio blob is written with, besides its bytes: its content type and, for a whole request's
 * answer, its response head, so that the take can be replayed from the blob store alone while the index
 * (PostgreSQL) cannot be read (`findStoredTake`).
 */
export function storedTakeMeta(take: { contentType: string; head?: ResponseHead }): BlobPutMeta {
  if (!take.head) return { contentType: take.contentType };
  const encoded = Buffer.from(JSON.stringify(take.head)).toString('base64url');
  return encoded.length > MAX_HEAD_METADATA
    ? { contentType: take.contentType }
    : { contentType: take.contentType, metadata: { [HEAD_METADATA]: encoded } };
}

/**
 * A key's take found in the blob store alone, for when the index cannot be read (PostgreSQL down): the takes
 * under `<org>/<key>/` are listed and the first written is taken, which is the committed one in all but one
 * case (a second take of the key written while the first was being committed, before cache-service refused it
 * and deleted its blobs: both are whole takes of the same sentence). Its content type (and, with `head`, a
 * whole request's response head) is read from the audio blob as it was written (`storedTakeMeta`); a take
 * written without it (by a store that keeps none, or a head too large to keep) is not found. undefined when
 * there is none; a store that fails or does not answer within `timeoutMs` rejects with CacheUnreadableError.
 */
export async function findStoredTake(
  blobs: BlobStore,
  orgId: string,
  cacheKey: string,
  options: { timeoutMs: number; head: boolean },
): Promise<CachedTake | undefined> {
  // Names are built from canonical ids only: another spelling names nothing the cache wrote.
  if (!isCanonicalOrgId(orgId) || !isCanonicalCacheKey(cacheKey)) return undefined;
  const finding = (async (): Promise<CachedTake | undefined> => {
    const prefix = `${orgId}/${cacheKey}/`;
    const takes = new Map<string, { size?: number; words: boolean }>();
    for await (const entry of blobs.list(prefix)) {
      const rest = entry.name.slice(prefix.length);
      const audio = rest.endsWith(AUDIO);
      const takeId = rest.slice(0, -(audio ? AUDIO : WORDS).length);
      if ((!audio && !rest.endsWith(WORDS)) || takeWrittenAt(takeId) === null) continue;
      const take = takes.get(takeId) ?? { words: false };
      if (audio) take.size = entry.size;
      else take.words = true;
      takes.set(takeId, take);
    }
    const [first] = [...takes]
      .filter(([, take]) => take.size !== undefined)
      .sort(([a], [b]) => (takeWrittenAt(a) ?? 0) - (takeWrittenAt(b) ?? 0) || a.localeCompare(b));
    if (!first) return undefined;
    const [takeId, { size, words }] = first;
    const objectName = cacheObjectNames(orgId, cacheKey, takeId).audio;
    const stat = await blobs.stat(objectName);
    if (!stat?.contentType) return undefined;
    const found: CachedTake = {
      objectName,
      contentType: stat.contentType,
      byteSize: size ?? stat.size,
      hasTimings: words,
    };
    if (!options.head) return found;
    const head = readHead(stat.metadata?.[HEAD_METADATA]);
    return head ? { ...found, head } : undefined;
  })();
  finding.catch(() => undefined);
  try {
    return await withinDeadline(finding, options.timeoutMs, 'blob');
  } catch (error) {
    if (error instanceof CacheUnreadableError) throw error;
    throw new CacheUnreadableError('blob', { cause: error });
  }
}

function readHead(encoded: string | undefined): ResponseHead | undefined {
  if (encoded === undefined) return undefined;
  try {
    return responseHead(JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')), 'head');
  } catch {
    return undefined;
  }
}
