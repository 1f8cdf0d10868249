/** The formats that reach the framework as 16-bit PCM without a codec: G.711 and WAV only need unpacking. */
export type PcmFormat = 'pcm' | 'wav' | 'mulaw' | 'alaw';

export const PCM_FORMATS: readonly PcmFormat[] = ['pcm', 'wav', 'mulaw', 'alaw'];

/** A sentence's audio that cannot be turned into the frames the framework plays. */
export class AudioFormatError extends Error {
  override readonly name: string = 'AudioFormatError';
}

/** Turns one sentence's audio, chunk by chunk, into 16-bit little-endian mono PCM. */
export interface SentenceDecoder {
  /** The PCM of this chunk (empty while a WAV header is still being read). */
  write(chunk: Uint8Array): Uint8Array;
}

/**
 * A decoder for one sentence: every sentence of a `/v1/stream` reply is a self-contained clip, so a `wav`
 * sentence starts with its own header. The samples themselves are never changed: `pcm` passes through, a
 * `wav` header is dropped, and G.711 bytes are expanded to the 16-bit values the standard defines.
 */
export function sentenceDecoder(format: PcmFormat, sampleRate: number): SentenceDecoder {
  switch (format) {
    case 'pcm':
      return { write: (chunk) => chunk };
    case 'mulaw':
      return { write: (chunk) => expand(chunk, MULAW) };
    case 'alaw':
      return { write: (chunk) => expand(chunk, ALAW) };
    case 'wav':
      return new WavSentence(sampleRate);
  }
}

function expand(chunk: Uint8Array, table: Int16Array): Uint8Array {
  const samples = new Int16Array(chunk.length);
  for (let i = 0; i < chunk.length; i++) samples[i] = table[chunk[i]];
  return new Uint8Array(samples.buffer);
}

/** G.711 μ-law: the 16-bit value of each code (ITU-T G.711, the usual bias of 0x84). */
const MULAW = new Int16Array(256).map((_, code) => {
  const u = ~code & 0xff;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4)) - 0x84;
  return u & 0x80 ? -magnitude : magnitude;
});

/** G.711 A-law: the 16-bit value of each code (even bits inverted with 0x55). */
const ALAW = new Int16Array(256).map((_, code) => {
  const a = code ^ 0x55;
  const segment = (a & 0x70) >> 4;
  let magnitude = ((a & 0x0f) << 4) + 8;
  if (segment > 0) magnitude = (magnitude + 0x100) << (segment - 1);
  return a & 0x80 ? magnitude : -magnitude;
});

const RIFF_HEAD = 12;
const CHUNK_HEAD = 8;
/** A header larger than this is not one a vendor sends: the sentence is refused rather than buffered. */
const MAX_HEADER_BYTES = 64 * 1024;

class WavSentence implements SentenceDecoder {
  private head: Uint8Array | null = new Uint8Array(0);

  constructor(private readonly sampleRate: number) {}

  write(chunk: Uint8Array): Uint8Array {
    if (this.head === null) return chunk;
    const head = new Uint8Array(this.head.length + chunk.length);
    head.set(this.head);
    head.set(chunk, this.head.length);
    const dataAt = this.dataOffset(head);
    if (dataAt === null) {
      if (head.length > MAX_HEADER_BYTES) throw new AudioFormatError('A wav sentence has no data chunk');
      this.head = head;
      return new Uint8Array(0);
    }
    this.head = null;
    return head.subarray(dataAt);
  }

  /** Where the sample data starts, once the header up to the `data` chunk has arrived; null before. */
  private dataOffset(bytes: Uint8Array): number | null {
    if (bytes.length < RIFF_HEAD) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (ascii(bytes, 0) !== 'RIFF' || ascii(bytes, 8) !== 'WAVE') {
      throw new AudioFormatError('A wav sentence does not start with a RIFF/WAVE header');
    }
    let at = RIFF_HEAD;
    while (at + CHUNK_HEAD <= bytes.length) {
      const id = ascii(bytes, at);
      const size = view.getUint32(at + 4, true);
      if (id === 'data') return at + CHUNK_HEAD;
      if (id === 'fmt ') {
        if (at + CHUNK_HEAD + 16 > bytes.length) return null;
        this.checkFormat(view, at + CHUNK_HEAD);
      }
      at += CHUNK_HEAD + size + (size % 2);
    }
    return null;
  }

  private checkFormat(view: DataView, at: number): void {
    const tag = view.getUint16(at, true);
    const channels = view.getUint16(at + 2, true);
    const rate = view.getUint32(at + 4, true);
    const bits = view.getUint16(at + 14, true);
    // 1 is PCM; 0xfffe (extensible) carries PCM too at these sizes.
    if ((tag !== 1 && tag !== 0xfffe) || bits !== 16 || channels !== 1 || rate !== this.sampleRate) {
      throw new AudioFormatError(
        `A wav sentence is ${bits}-bit, ${channels} channel(s) at ${rate} Hz (format ${tag}); ` +
          `16-bit mono PCM at ${this.sampleRate} Hz was asked for`,
      );
    }
  }
}

function ascii(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}
