import { streamingWavHeader } from '@router/vendors-core';
import { WavSampleData } from './wav-sample-data';

function wavFile(samples: Buffer, extraChunk = false): Buffer {
  const fmt = streamingWavHeader(24000).subarray(12, 36);
  const list = extraChunk
    ? Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc\0')])
    : Buffer.alloc(0);
  const dataHead = Buffer.alloc(8);
  dataHead.write('data', 0, 'ascii');
  dataHead.writeUInt32LE(samples.length, 4);
  const body = Buffer.concat([Buffer.from('WAVE'), fmt, list, dataHead, samples]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

describe('wav framing', () => {
  it('writes a streaming header with open sizes and the given rate', () => {
    const h = streamingWavHeader(16000);
    expect(h.toString('ascii', 0, 4)).toBe('RIFF');
    expect(h.readUInt32LE(4)).toBe(0xffffffff);
    expect(h.readUInt32LE(24)).toBe(16000);
    expect(h.readUInt32LE(28)).toBe(32000);
    expect(h.toString('ascii', 36, 40)).toBe('data');
    expect(h.readUInt32LE(40)).toBe(0xffffffff);
  });

  it.each([1, 3, 7, 44, 1000])('passes exactly the sample data through, fed in %i-byte chunks', (size) => {
    const samples = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));
    const file = wavFile(samples, size === 3);
    const out: Buffer[] = [];
    const strip = new WavSampleData();
    for (let i = 0; i < file.length; i += size) out.push(strip.push(file.subarray(i, i + size)));
    expect(Buffer.concat(out).equals(samples)).toBe(true);
  });

  it('passes bytes that are not a RIFF file untouched', () => {
    const strip = new WavSampleData();
    const raw = Buffer.from('0123456789abcdef');
    expect(Buffer.concat([strip.push(raw.subarray(0, 5)), strip.push(raw.subarray(5))]).equals(raw)).toBe(
      true,
    );
  });
});
