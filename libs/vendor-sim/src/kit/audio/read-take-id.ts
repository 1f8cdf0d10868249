import { AAC_FILLER_OFFSET } from './aac.codec';
import type { SimCodec } from './audio-spec';
import { mp3FillerOffset } from './mp3.codec';
import { parseWav } from './pcm.codec';
import { markerAt, TAKE_ID_BYTES, TAKE_MAGIC, TAKE_TEXT_PREFIX } from './take-marker';

/**
 * The take id stamped into one take's audio at the place its format puts it, or null when the audio does not
 * start with a simulated take (or is too short to hold the marker).
 */
export function readTakeId(audio: Buffer, codec: SimCodec): string | null {
  try {
    switch (codec) {
      case 'pcm':
      case 'mulaw':
      case 'alaw':
        return markerAt(audio, 0);
      case 'wav':
        return markerAt(audio, parseWav(audio).dataOffset);
      case 'mp3':
        return markerAt(audio, mp3FillerOffset(audio));
      case 'aac':
        return markerAt(audio, AAC_FILLER_OFFSET);
      case 'opus':
      case 'flac':
        return findTakeIds(audio)[0] ?? null;
    }
  } catch {
    return null;
  }
}

/**
 * Every take id in `audio`, in order: for audio that joins several takes (a reply of several sentences, a
 * stream of several generations). Finds both the binary marker and the text tag.
 */
export function findTakeIds(audio: Buffer): string[] {
  const found: { at: number; id: string }[] = [];
  const prefix = Buffer.from(TAKE_TEXT_PREFIX, 'latin1');
  for (let at = audio.indexOf(TAKE_MAGIC); at !== -1; at = audio.indexOf(TAKE_MAGIC, at + 1)) {
    // The text tag starts with the same four letters; it is read below.
    if (audio.subarray(at, at + prefix.length).equals(prefix)) continue;
    const id = markerAt(audio, at);
    if (id) found.push({ at, id });
  }
  for (let at = audio.indexOf(prefix); at !== -1; at = audio.indexOf(prefix, at + 1)) {
    const hex = audio.toString('latin1', at + prefix.length, at + prefix.length + TAKE_ID_BYTES * 2);
    if (/^[0-9a-f]{16}$/.test(hex)) found.push({ at, id: hex });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.id);
}
