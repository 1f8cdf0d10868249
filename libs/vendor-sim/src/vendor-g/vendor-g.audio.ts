import type { Take } from '../kit/audio/take';

/**
 * A raw take in the sample encoding a vendor_g `pcm_*` name asks for (`vendorGSampleEncoding`). The kit makes
 * raw audio as 16-bit little-endian samples; `s16be` swaps each sample's bytes, `f32le` writes each as a
 * 32-bit float in [-1, 1), so its units end at twice the offsets. Anything else is the take as it is.
 */
export function vendorGTake(take: Take, samples: 'f32le' | 's16be' | undefined): Take {
  if (samples === undefined) return take;
  const count = Math.floor(take.bytes.length / 2);
  if (samples === 's16be') {
    const bytes = Buffer.from(take.bytes);
    bytes.swap16();
    return { ...take, bytes };
  }
  const bytes = Buffer.alloc(count * 4);
  for (let i = 0; i < count; i++) bytes.writeFloatLE(take.bytes.readInt16LE(i * 2) / 32768, i * 4);
  return { ...take, bytes, units: take.units.map((unit) => ({ ...unit, end: unit.end * 2 })) };
}
