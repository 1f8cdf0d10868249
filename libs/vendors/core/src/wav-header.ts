/** The size a streaming WAV writer leaves in the RIFF and data size fields while the length is unknown. */
const OPEN_SIZE = 0xffffffff;

/**
 * A WAV header for PCM whose length is not known yet: its RIFF and data sizes are left open, as streaming WAV
 * writers do. The samples after it are passed through untouched.
 */
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
