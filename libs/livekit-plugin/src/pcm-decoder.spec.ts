import fc from 'fast-check';
import { AudioFormatError, sentenceDecoder } from './pcm-decoder';

const samples = (bytes: Uint8Array): number[] => [
  ...new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2),
];

/** A WAV header as a vendor writes one (optionally with a LIST chunk before `data`). */
function wavHeader(rate: number, options: { bits?: number; channels?: number; list?: boolean } = {}): Buffer {
  const bits = options.bits ?? 16;
  const channels = options.channels ?? 1;
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8);
  fmt.writeUInt16LE(channels, 10);
  fmt.writeUInt32LE(rate, 12);
  fmt.writeUInt32LE((rate * channels * bits) / 8, 16);
  fmt.writeUInt16LE((channels * bits) / 8, 20);
  fmt.writeUInt16LE(bits, 22);
  const list = Buffer.from('LIST\x03\x00\x00\x00abc\x00', 'latin1'); // odd size, padded
  const data = Buffer.from('data\xff\xff\xff\xff', 'latin1');
  return Buffer.concat([
    Buffer.from('RIFF\xff\xff\xff\xffWAVE', 'latin1'),
    fmt,
    ...(options.list ? [list] : []),
    data,
  ]);
}

describe('sentenceDecoder', () => {
  it('passes pcm through untouched', () => {
    const chunk = new Uint8Array([1, 2, 3]);
    expect(sentenceDecoder('pcm', 24000).write(chunk)).toBe(chunk);
  });

  it('expands G.711 mu-law codes to the standard 16-bit values', () => {
    const pcm = sentenceDecoder('mulaw', 8000).write(new Uint8Array([0x00, 0x80, 0xff, 0x7f, 0x8f]));
    // 0x8f: the last code of the top segment, 15 steps of 1024 below 0x80.
    expect(samples(pcm)).toEqual([-32124, 32124, 0, 0, 32124 - 15 * 1024]);
  });

  it('expands G.711 A-law codes to the standard 16-bit values', () => {
    const pcm = sentenceDecoder('alaw', 8000).write(new Uint8Array([0xd5, 0x55, 0xaa, 0x2a]));
    expect(samples(pcm)).toEqual([8, -8, 32256, -32256]);
  });

  it('drops a wav header split across chunks and keeps every sample after it', () => {
    const decoder = sentenceDecoder('wav', 16000);
    const header = wavHeader(16000, { list: true });
    const body = Buffer.from([1, 0, 2, 0, 3, 0]);
    const whole = Buffer.concat([header, body]);
    const out = [decoder.write(whole.subarray(0, 10)), decoder.write(whole.subarray(10, 40))];
    out.push(decoder.write(whole.subarray(40)), decoder.write(new Uint8Array([4, 0])));
    expect(samples(Buffer.concat(out))).toEqual([1, 2, 3, 4]);
  });

  it.each([
    ['a rate other than the one asked for', wavHeader(24000), /at 24000 Hz.*at 16000 Hz was asked/],
    ['8-bit samples', wavHeader(16000, { bits: 8 }), /8-bit/],
    ['stereo', wavHeader(16000, { channels: 2 }), /2 channel/],
    ['no RIFF header', Buffer.from('not a wav file at all'), /RIFF\/WAVE/],
  ])('refuses a wav sentence with %s', (_what, bytes, message) => {
    const decoder = sentenceDecoder('wav', 16000);
    expect(() => decoder.write(bytes)).toThrow(AudioFormatError);
    expect(() => sentenceDecoder('wav', 16000).write(bytes)).toThrow(message);
  });
});

describe('sentenceDecoder on any bytes (fuzz)', () => {
  it('a wav sentence either yields samples from after its header or refuses with AudioFormatError', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }), (chunks) => {
        const decoder = sentenceDecoder('wav', 16000);
        let out = 0;
        try {
          for (const chunk of chunks) out += decoder.write(chunk).length;
        } catch (error) {
          expect(error).toBeInstanceOf(AudioFormatError);
          return;
        }
        expect(out).toBeLessThanOrEqual(chunks.reduce((n, c) => n + c.length, 0));
      }),
    );
  });

  it('G.711 gives two bytes of PCM for every byte, whatever the bytes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 256 }),
        fc.constantFrom('mulaw' as const, 'alaw' as const),
        (bytes, format) => {
          expect(sentenceDecoder(format, 8000).write(bytes).length).toBe(bytes.length * 2);
        },
      ),
    );
  });
});
