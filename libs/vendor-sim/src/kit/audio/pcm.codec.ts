import type { AudioUnit, EncodedAudio } from './audio-spec';
import { stampMarker } from './take-marker';

/** Sample-format streams are cut every 20 ms of audio. */
const UNIT_MS = 20;
export const WAV_HEADER_BYTES = 44;

/** Raw 16-bit little-endian mono, the take marker over the first six samples. */
export function encodePcm(samples: Int16Array, sampleRate: number, takeId: string): EncodedAudio {
  const bytes = pcmBytes(samples);
  stampMarker(bytes, takeId);
  return {
    bytes,
    units: sampleUnits(samples.length, sampleRate, 2, 0),
    durationMs: msOf(samples.length, sampleRate),
  };
}

/** A complete RIFF/WAVE file (sizes filled in), the marker over the first samples after the header. */
export function encodeWav(samples: Int16Array, sampleRate: number, takeId: string): EncodedAudio {
  const data = pcmBytes(samples);
  stampMarker(data, takeId);
  const bytes = Buffer.concat([wavHeader(sampleRate, data.length), data]);
  return {
    bytes,
    units: sampleUnits(samples.length, sampleRate, 2, WAV_HEADER_BYTES),
    durationMs: msOf(samples.length, sampleRate),
  };
}

export function wavHeader(sampleRate: number, dataBytes: number): Buffer {
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

export interface WavInfo {
  readonly audioFormat: number;
  readonly channels: number;
  readonly sampleRate: number;
  readonly byteRate: number;
  readonly blockAlign: number;
  readonly bitsPerSample: number;
  /** The RIFF chunk's size field (file length - 8 in a complete file). */
  readonly riffSize: number;
  readonly dataOffset: number;
  /** The `data` chunk's size field. */
  readonly dataSize: number;
}

/** Reads a RIFF/WAVE header, walking its chunks to `data`. Throws on anything that is not one. */
export function parseWav(audio: Buffer): WavInfo {
  if (
    audio.length < 12 ||
    audio.toString('latin1', 0, 4) !== 'RIFF' ||
    audio.toString('latin1', 8, 12) !== 'WAVE'
  ) {
    throw new Error('not a RIFF/WAVE file');
  }
  let offset = 12;
  let fmt: Omit<WavInfo, 'riffSize' | 'dataOffset' | 'dataSize'> | undefined;
  while (offset + 8 <= audio.length) {
    const id = audio.toString('latin1', offset, offset + 4);
    const size = audio.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      fmt = {
        audioFormat: audio.readUInt16LE(body),
        channels: audio.readUInt16LE(body + 2),
        sampleRate: audio.readUInt32LE(body + 4),
        byteRate: audio.readUInt32LE(body + 8),
        blockAlign: audio.readUInt16LE(body + 12),
        bitsPerSample: audio.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('WAV data chunk before its fmt chunk');
      return { ...fmt, riffSize: audio.readUInt32LE(4), dataOffset: body, dataSize: size };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file without a data chunk');
}

export function pcmBytes(samples: Int16Array): Buffer {
  const bytes = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) bytes.writeInt16LE(samples[i] ?? 0, i * 2);
  return bytes;
}

/** Units of 20 ms for a sample format with `bytesPerSample`, after `headerBytes` of container header. */
export function sampleUnits(
  count: number,
  sampleRate: number,
  bytesPerSample: number,
  headerBytes: number,
): AudioUnit[] {
  const perUnit = Math.max(1, Math.round((sampleRate * UNIT_MS) / 1000));
  const units: AudioUnit[] = [];
  for (let done = 0; done < count;) {
    done = Math.min(count, done + perUnit);
    units.push({ end: headerBytes + done * bytesPerSample, endMs: msOf(done, sampleRate) });
  }
  return units;
}

export function msOf(samples: number, sampleRate: number): number {
  return (samples * 1000) / sampleRate;
}
