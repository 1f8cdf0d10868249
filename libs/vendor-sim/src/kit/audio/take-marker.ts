import { randomBytes } from 'node:crypto';

/**
 * Every take carries a random id in its audio, so a test can tell a replay (same id, same bytes) from a fresh
 * take. Sample and frame formats carry `MAGIC` + 8 id bytes at a fixed place; containers with a text tag
 * (Ogg Opus, FLAC) carry `TEXT_PREFIX` + 16 hex digits in it.
 */
export const TAKE_MAGIC = Buffer.from('SIMT', 'latin1');
export const TAKE_ID_BYTES = 8;
export const TAKE_MARKER_BYTES = TAKE_MAGIC.length + TAKE_ID_BYTES;
export const TAKE_TEXT_PREFIX = 'SIMTAKE=';

export function newTakeId(): string {
  return randomBytes(TAKE_ID_BYTES).toString('hex');
}

export function takeMarker(takeId: string): Buffer {
  return Buffer.concat([TAKE_MAGIC, Buffer.from(takeId, 'hex')]);
}

export function takeTextMarker(takeId: string): string {
  return `${TAKE_TEXT_PREFIX}${takeId}`;
}

/** The id in a binary marker at `offset`, or null when no marker starts there. */
export function markerAt(audio: Buffer, offset: number): string | null {
  if (offset < 0 || audio.length < offset + TAKE_MARKER_BYTES) return null;
  if (!audio.subarray(offset, offset + TAKE_MAGIC.length).equals(TAKE_MAGIC)) return null;
  return audio.subarray(offset + TAKE_MAGIC.length, offset + TAKE_MARKER_BYTES).toString('hex');
}

/** Writes the marker over the first bytes of `region` (a view into the take's buffer). */
export function stampMarker(region: Buffer, takeId: string): void {
  takeMarker(takeId).copy(region, 0, 0, Math.min(TAKE_MARKER_BYTES, region.length));
}

/** A small per-take seed, so a take's samples (not only its marker) differ from every other take's. */
export function takeSeed(takeId: string): number {
  return Buffer.from(takeId, 'hex').readUInt16BE(0);
}
