import type { AudioUnit, EncodedAudio } from './audio-spec';
import { takeTextMarker } from './take-marker';

/**
 * Ogg Opus: the OpusHead and OpusTags pages (the take marker is a comment in OpusTags), then audio pages of
 * 20 ms CELT packets that start with the codec's silence frame and are padded to the bitrate with filler.
 */
const FRAME_MS = 20;
const PACKETS_PER_PAGE = 10;
const PRE_SKIP = 312;
const SILENT_PACKET = [0xf8, 0xff, 0xfe];

export const OPUS_SAMPLE_RATES: readonly number[] = [8000, 12000, 16000, 24000, 48000];

export function encodeOggOpus(
  durationMs: number,
  inputRate: number,
  kbps: number,
  takeId: string,
): EncodedAudio {
  const serial = Buffer.from(takeId, 'hex').readUInt32BE(0);
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1;
  head[9] = 1;
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(inputRate, 12);
  const tags = opusTags(takeTextMarker(takeId));
  let sequence = 0;
  const parts = [oggPage([head], 0, serial, sequence++, 0x02), oggPage([tags], 0, serial, sequence++, 0)];
  let offset = parts.reduce((sum, page) => sum + page.length, 0);
  const packetCount = Math.max(1, Math.ceil(durationMs / FRAME_MS));
  const packetBytes = Math.max(SILENT_PACKET.length, Math.round((kbps * 1000 * FRAME_MS) / 1000 / 8));
  const units: AudioUnit[] = [];
  for (let first = 0; first < packetCount; first += PACKETS_PER_PAGE) {
    const count = Math.min(PACKETS_PER_PAGE, packetCount - first);
    const packets = Array.from({ length: count }, () => {
      const packet = Buffer.alloc(packetBytes, 0x55);
      Buffer.from(SILENT_PACKET).copy(packet);
      return packet;
    });
    const done = first + count;
    const page = oggPage(packets, done * FRAME_MS * 48, serial, sequence++, done === packetCount ? 0x04 : 0);
    parts.push(page);
    offset += page.length;
    units.push({ end: offset, endMs: done * FRAME_MS });
  }
  return { bytes: Buffer.concat(parts), units, durationMs: packetCount * FRAME_MS };
}

function opusTags(comment: string): Buffer {
  const vendor = Buffer.from('vendor-sim', 'utf8');
  const text = Buffer.from(comment, 'utf8');
  const out = Buffer.alloc(8 + 4 + vendor.length + 4 + 4 + text.length);
  out.write('OpusTags', 0, 'latin1');
  out.writeUInt32LE(vendor.length, 8);
  vendor.copy(out, 12);
  out.writeUInt32LE(1, 12 + vendor.length);
  out.writeUInt32LE(text.length, 16 + vendor.length);
  text.copy(out, 20 + vendor.length);
  return out;
}

function oggPage(
  packets: readonly Buffer[],
  granule: number,
  serial: number,
  sequence: number,
  flags: number,
): Buffer {
  const lacing: number[] = [];
  for (const packet of packets) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  if (lacing.length > 255) throw new Error('too many Ogg segments in one page');
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigUInt64LE(BigInt(granule), 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  Buffer.from(lacing).copy(header, 27);
  const page = Buffer.concat([header, ...packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

export function oggCrc(page: Buffer): number {
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ?? 0)) >>> 0;
  return crc;
}

export interface OggPage {
  readonly offset: number;
  readonly length: number;
  readonly flags: number;
  readonly granule: bigint;
  readonly sequence: number;
  readonly crcValid: boolean;
  readonly body: Buffer;
}

/** Walks Ogg pages, checking capture pattern and CRC. Throws on a bad capture pattern. */
export function parseOgg(audio: Buffer): OggPage[] {
  const pages: OggPage[] = [];
  let offset = 0;
  while (offset + 27 <= audio.length) {
    if (audio.toString('latin1', offset, offset + 4) !== 'OggS')
      throw new Error(`no Ogg page at byte ${offset}`);
    const segments = audio[offset + 26] ?? 0;
    const lacing = audio.subarray(offset + 27, offset + 27 + segments);
    const bodyLength = lacing.reduce((sum, n) => sum + n, 0);
    const length = 27 + segments + bodyLength;
    if (offset + length > audio.length) break;
    const page = Buffer.from(audio.subarray(offset, offset + length));
    const stored = page.readUInt32LE(22);
    page.writeUInt32LE(0, 22);
    pages.push({
      offset,
      length,
      flags: page[5] ?? 0,
      granule: page.readBigUInt64LE(6),
      sequence: page.readUInt32LE(18),
      crcValid: oggCrc(page) === stored,
      body: page.subarray(27 + segments),
    });
    offset += length;
  }
  return pages;
}
