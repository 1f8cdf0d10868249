/**
 * The one container change the spec allows on the native surface: a POST /v1/audio/speech `wav` reply is one
 * streaming WAV header (sizes left open, `streamingWavHeader` in vendors-core) and then each sentence's sample
 * data, as the vendor sent it, without its own header. /v1/stream sends each sentence whole (its header kept,
 * so each plays on its own) and uses this only to time the sample data (AudioClock).
 *
 * Passes one sentence's WAV bytes through without the RIFF header: holds bytes only until the `data` chunk
 * starts, then forwards every byte untouched.
 */
export class WavSampleData {
  private held: Buffer | null = Buffer.alloc(0);

  push(chunk: Buffer): Buffer {
    if (this.held === null) return chunk;
    const buf = Buffer.concat([this.held, chunk]);
    let offset = 12;
    if (buf.length < 12) {
      this.held = buf;
      return Buffer.alloc(0);
    }
    if (buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
      // Not a RIFF file: the vendor sent bare samples, which pass as they are.
      this.held = null;
      return buf;
    }
    while (offset + 8 <= buf.length) {
      const id = buf.toString('ascii', offset, offset + 4);
      const size = buf.readUInt32LE(offset + 4);
      if (id === 'data') {
        this.held = null;
        return buf.subarray(offset + 8);
      }
      offset += 8 + size + (size % 2);
    }
    this.held = buf;
    return Buffer.alloc(0);
  }
}
