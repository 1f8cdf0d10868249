/** The ID3v2 header: `ID3`, version (2), flags (1), size (4, 7 bits a byte). */
const HEADER_BYTES = 10;
const FOOTER_FLAG = 0x10;

/**
 * Passes an MP3 stream through without the ID3v2 tag it starts with (vendor_c starts every MP3 answer with
 * one; in a socket's context only the first sentence carries it, spec: Vendor drop-ins). Holds bytes only
 * until the tag's length is known, then skips exactly the tag and forwards every other byte untouched. A
 * stream that does not start with a tag passes whole.
 */
export class Id3Skipper {
  private held: Buffer | null = Buffer.alloc(0);
  private skip = 0;

  push(chunk: Buffer): Buffer {
    if (this.held !== null) {
      const buf = Buffer.concat([this.held, chunk]);
      if (
        buf.length < HEADER_BYTES &&
        buf.toString('latin1', 0, Math.min(3, buf.length)) === 'ID3'.slice(0, buf.length)
      ) {
        this.held = buf;
        return Buffer.alloc(0);
      }
      this.held = null;
      this.skip = tagLength(buf);
      chunk = buf;
    }
    if (this.skip === 0) return chunk;
    const skipped = Math.min(this.skip, chunk.length);
    this.skip -= skipped;
    return chunk.subarray(skipped);
  }
}

/** The whole tag's length in bytes, or 0 when the bytes do not start with one. */
function tagLength(buf: Buffer): number {
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 3) !== 'ID3') return 0;
  const size = ((buf[6] ?? 0) << 21) | ((buf[7] ?? 0) << 14) | ((buf[8] ?? 0) << 7) | (buf[9] ?? 0);
  const footer = ((buf[5] ?? 0) & FOOTER_FLAG) !== 0 ? HEADER_BYTES : 0;
  return HEADER_BYTES + size + footer;
}
