import { isBlobNotFoundError, type BlobStore } from '@router/blob-store';
import { type CachedTake, type ResponseHead, type WordTiming, wordsObjectNameOf } from '@router/contracts';

/** A take held whole: as read back from the store, and as a requester's hot tier keeps it. */
export interface HotEntry {
  audio: Buffer;
  contentType: string;
  words: WordTiming[] | null;
  /** Each character's timing, where the vendor times characters. */
  chars?: WordTiming[] | null;
  /** A whole-request take's status and kept response headers. */
  head?: ResponseHead;
}

/** Why a cached take could not be read: the store failed or did not answer in time. */
export class CacheUnreadableError extends Error {
  constructor(
    readonly store: 'index' | 'blob',
    options?: { cause?: unknown },
  ) {
    super(`the cache ${store} could not be read`, options);
    this.name = 'CacheUnreadableError';
  }
}

/**
 * Resolves as `work` does, or rejects with CacheUnreadableError after `timeoutMs` (the work itself goes on and
 * its outcome is dropped): a store that hangs must not hold a reply.
 */
export async function withinDeadline<T>(
  work: Promise<T>,
  timeoutMs: number,
  store: 'index' | 'blob',
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CacheUnreadableError(store)), timeoutMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A committed take's audio and word timings from the blob store, or undefined when its blob has gone (swept
 * between the index read and this one: a miss). Any other failure, or no answer within `timeoutMs`, rejects
 * with CacheUnreadableError. `open` unseals a sealed body (a whole request's answer, `openStored`); a body it
 * cannot open is unreadable too.
 */
export async function readStoredTake(
  blobs: BlobStore,
  hit: CachedTake,
  timeoutMs: number,
  open?: (stored: Buffer) => Buffer,
): Promise<HotEntry | undefined> {
  const reading = Promise.all([
    blobs.get(hit.objectName),
    hit.hasTimings
      ? blobs.get(wordsObjectNameOf(hit.objectName)).then((b) => readTimings(b))
      : Promise.resolve(null),
  ]);
  // Both reads may fail; the one Promise.all does not report must not surface as unhandled.
  reading.catch(() => undefined);
  try {
    const [stored, timings] = await withinDeadline(reading, timeoutMs, 'blob');
    const audio = open ? open(stored) : stored;
    return {
      audio,
      contentType: hit.contentType,
      words: timings?.words ?? null,
      ...(timings?.chars ? { chars: timings.chars } : {}),
      ...(hit.head ? { head: hit.head } : {}),
    };
  } catch (error) {
    if (isBlobNotFoundError(error)) return undefined;
    if (error instanceof CacheUnreadableError) throw error;
    throw new CacheUnreadableError('blob', { cause: error });
  }
}

/** A take's timings as stored beside its audio. */
export interface StoredTimings {
  words: WordTiming[] | null;
  chars?: WordTiming[] | null;
}

/** The timings blob: `{words, chars}`, or the word timings alone (as takes stored before character timings). */
export function storedTimingsBlob(timings: StoredTimings): Buffer {
  return Buffer.from(JSON.stringify(timings.chars ? timings : timings.words));
}

function readTimings(blob: Buffer): StoredTimings {
  const parsed = JSON.parse(blob.toString('utf8')) as WordTiming[] | StoredTimings;
  return Array.isArray(parsed) ? { words: parsed } : parsed;
}
