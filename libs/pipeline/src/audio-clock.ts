import { WavSampleData } from './wav-sample-data';

/** Bytes per sample of the formats whose length in time follows from their size (mono). */
const BYTES_PER_SAMPLE: Readonly<Record<string, number>> = { pcm: 2, wav: 2, mulaw: 1, alaw: 1 };

/**
 * How long a sentence's audio plays, counted from its bytes as they are sent: exact for raw PCM, WAV
 * (sample data only) and G.711; null for compressed formats, which would need decoding.
 */
export class AudioClock {
  private sampleBytes = 0;
  private readonly wav: WavSampleData | undefined;
  private readonly bytesPerSample: number | undefined;

  constructor(
    format: string,
    private readonly sampleRate: number,
  ) {
    this.bytesPerSample = BYTES_PER_SAMPLE[format];
    this.wav = format === 'wav' ? new WavSampleData() : undefined;
  }

  push(chunk: Buffer): void {
    if (this.bytesPerSample === undefined) return;
    this.sampleBytes += this.wav ? this.wav.push(chunk).length : chunk.length;
  }

  durationMs(): number | null {
    if (this.bytesPerSample === undefined) return null;
    return (this.sampleBytes / this.bytesPerSample / this.sampleRate) * 1000;
  }
}
