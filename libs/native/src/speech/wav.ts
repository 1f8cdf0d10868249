/**
 * The one container change the spec allows on the native surface: a `wav` reply is one streaming WAV header
 * (sizes left open) and then each sentence's sample data, as the vendor sent it, without its own header.
 */
const OPEN_SIZE = 0xffffffff;

export function streamingWavHeader(sampleRate: number, channels = 1, bitsPerSample = 16): Buffer {
  const header = Buffer.alloc(44);
  const blockAlign = (channels * bitsPerSample) / 8;
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(OPEN_SIZE, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bitsPerSample, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(OPEN_SIZE, 40);
  return header;
}

/**
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
