import { parseAdts } from './aac.codec';
import { SIM_CODECS, type AudioSpec } from './audio-spec';
import { crc16, crc8, parseFlacStreamInfo } from './flac.codec';
import { alawToLinear, linearToAlaw, linearToMulaw, mulawToLinear } from './g711.codec';
import { mp3Bitrate, parseMp3 } from './mp3.codec';
import { parseOgg } from './ogg-opus.codec';
import { parseWav } from './pcm.codec';
import { findTakeIds, readTakeId } from './read-take-id';
import { sampleCount } from './sample-source';
import { createTake, spokenMs, takePieces } from './take';

const TEXT = 'Twenty characters ok';

describe('simulated audio', () => {
  describe('mp3', () => {
    it('pads frames so the average bitrate is exact (44100 Hz, 128k)', () => {
      const take = createTake('x'.repeat(200), { codec: 'mp3', sampleRate: 44100, bitrateKbps: 128 });
      const { frames, trailingBytes } = parseMp3(take.bytes);
      expect(trailingBytes).toBe(0);
      expect(new Set(frames.map((f) => f.length))).toEqual(new Set([417, 418]));
      const bytes = frames.reduce((sum, f) => sum + f.length, 0);
      const seconds = (frames.length * 1152) / 44100;
      expect(Math.abs((bytes * 8) / seconds / 1000 - 128)).toBeLessThan(0.5);
    });

    it.each([
      [8000, 'mpeg2.5', 576],
      [16000, 'mpeg2', 576],
      [22050, 'mpeg2', 576],
      [32000, 'mpeg1', 1152],
      [48000, 'mpeg1', 1152],
    ])('writes valid headers at %i Hz (%s)', (rate, version, samples) => {
      const take = createTake(TEXT, { codec: 'mp3', sampleRate: rate, bitrateKbps: 64 });
      const { frames } = parseMp3(take.bytes);
      expect(
        frames.every(
          (f) => f.version === version && f.sampleRate === rate && f.samples === samples && f.layer === 3,
        ),
      ).toBe(true);
      expect(frames.length).toBe(Math.ceil(sampleCount(spokenMs(TEXT), rate) / samples));
      expect(take.durationMs).toBeCloseTo((frames.length * samples * 1000) / rate, 6);
    });

    it('uses the largest bitrate the MPEG version has at the rate', () => {
      expect(mp3Bitrate(24000, 192)).toBe(160);
      expect(mp3Bitrate(44100, 192)).toBe(192);
      expect(mp3Bitrate(22050, 32)).toBe(32);
    });

    it('starts with an ID3 tag only when asked', () => {
      const tagged = createTake(TEXT, { codec: 'mp3', sampleRate: 44100, id3: true });
      expect(parseMp3(tagged.bytes).id3Bytes).toBeGreaterThan(10);
      expect(readTakeId(tagged.bytes, 'mp3')).toBe(tagged.takeId);
    });
  });

  it('writes ADTS frames of 1024 samples with consistent lengths', () => {
    const take = createTake(TEXT, { codec: 'aac', sampleRate: 24000, bitrateKbps: 96 });
    const { frames, trailingBytes } = parseAdts(take.bytes);
    expect(trailingBytes).toBe(0);
    expect(frames.length).toBe(Math.ceil(sampleCount(spokenMs(TEXT), 24000) / 1024));
    expect(frames.every((f) => f.sampleRate === 24000 && f.channels === 1 && f.protectionAbsent)).toBe(true);
    const average = frames.reduce((sum, f) => sum + f.length, 0) / frames.length;
    expect(average).toBeCloseTo((96000 * 1024) / 8 / 24000, 0);
  });

  it('writes a complete WAV header', () => {
    const take = createTake(TEXT, { codec: 'wav', sampleRate: 22050 });
    expect(parseWav(take.bytes)).toEqual({
      audioFormat: 1,
      channels: 1,
      sampleRate: 22050,
      byteRate: 44100,
      blockAlign: 2,
      bitsPerSample: 16,
      riffSize: take.bytes.length - 8,
      dataOffset: 44,
      dataSize: sampleCount(spokenMs(TEXT), 22050) * 2,
    });
  });

  it('encodes G.711 so that decoding returns the sample within the law step', () => {
    for (const sample of [-30000, -2000, -100, 0, 100, 2000, 30000]) {
      expect(Math.abs(mulawToLinear(linearToMulaw(sample)) - sample)).toBeLessThanOrEqual(
        Math.max(8, Math.abs(sample) / 16),
      );
      expect(Math.abs(alawToLinear(linearToAlaw(sample)) - sample)).toBeLessThanOrEqual(
        Math.max(16, Math.abs(sample) / 16),
      );
    }
  });

  it('writes Ogg Opus pages with valid CRCs, OpusHead first and growing granules', () => {
    const take = createTake(TEXT, { codec: 'opus', sampleRate: 24000, bitrateKbps: 32 });
    const pages = parseOgg(take.bytes);
    expect(pages.every((p) => p.crcValid)).toBe(true);
    expect(pages[0]?.body.subarray(0, 8).toString('latin1')).toBe('OpusHead');
    expect(pages[0]?.body.readUInt32LE(12)).toBe(24000);
    expect(pages[1]?.body.subarray(0, 8).toString('latin1')).toBe('OpusTags');
    expect(pages.at(-1)?.flags).toBe(0x04);
    const granules = pages.slice(2).map((p) => Number(p.granule));
    expect([...granules].sort((a, b) => a - b)).toEqual(granules);
    expect(readTakeId(take.bytes, 'opus')).toBe(take.takeId);
  });

  it('writes FLAC with STREAMINFO and frames whose CRCs check', () => {
    const take = createTake(TEXT, { codec: 'flac', sampleRate: 16000 });
    expect(parseFlacStreamInfo(take.bytes)).toEqual({
      sampleRate: 16000,
      channels: 1,
      bitsPerSample: 16,
      totalSamples: sampleCount(spokenMs(TEXT), 16000),
    });
    // The first unit is the metadata blocks plus the first frame, which starts at the first frame sync.
    const frame = take.bytes.subarray(take.bytes.indexOf(Buffer.from([0xff, 0xf8]), 4), take.units[0]?.end);
    expect(frame.readUInt16BE(0)).toBe(0xfff8);
    expect(crc8(frame.subarray(0, headerLength(frame)))).toBe(0);
    expect(crc16(frame)).toBe(0);
    expect(readTakeId(take.bytes, 'flac')).toBe(take.takeId);
  });

  it.each(SIM_CODECS)('stamps a fresh take id into %s audio', (codec) => {
    const spec: AudioSpec = { codec, sampleRate: codec === 'opus' ? 48000 : 16000 };
    const [a, b] = [createTake(TEXT, spec), createTake(TEXT, spec)];
    expect(readTakeId(a.bytes, codec)).toBe(a.takeId);
    expect(readTakeId(b.bytes, codec)).toBe(b.takeId);
    expect(a.takeId).not.toBe(b.takeId);
    expect(a.bytes.equals(b.bytes)).toBe(false);
    expect(readTakeId(Buffer.from('plain bytes, no take here'), codec)).toBeNull();
  });

  it('finds every take id in joined audio, in order', () => {
    const takes = [1, 2, 3].map(() => createTake(TEXT, { codec: 'pcm', sampleRate: 8000 }));
    expect(findTakeIds(Buffer.concat(takes.map((t) => t.bytes)))).toEqual(takes.map((t) => t.takeId));
  });

  it('cuts a take into pieces of at least chunkMs that cover every byte', () => {
    const take = createTake('x'.repeat(50), { codec: 'mp3', sampleRate: 24000, bitrateKbps: 48 });
    const pieces = takePieces(take, 100);
    expect(Buffer.concat(pieces.map((p) => p.bytes)).equals(take.bytes)).toBe(true);
    pieces.slice(0, -1).forEach((p) => expect(p.endMs - p.startMs).toBeGreaterThanOrEqual(100));
    expect(pieces.at(-1)?.last).toBe(true);
    expect(pieces.at(-1)?.endMs).toBeCloseTo(take.durationMs, 6);
    pieces.forEach((p) => expect(() => parseMp3(p.bytes)).not.toThrow());
  });

  it('spreads character timings over the spoken length', () => {
    const take = createTake('héllo', { codec: 'pcm', sampleRate: 8000 }, { speed: 2 });
    expect(take.characters.map((c) => c.char).join('')).toBe('héllo');
    expect(take.characters[0]?.startMs).toBe(0);
    expect(take.characters.at(-1)?.endMs).toBeCloseTo(150, 6);
    expect(take.durationMs).toBeCloseTo(150, 0);
  });
});

/** Bytes of a FLAC frame header up to and including its CRC-8 (first frame: one-byte frame number). */
function headerLength(frame: Buffer): number {
  const blockCode = (frame[2] ?? 0) >> 4;
  let length = 4 + 1; // sync (2), block/rate codes, channels/size, frame number 0
  if (blockCode === 7) length += 2;
  if (blockCode === 6) length += 1;
  return length + 1;
}
