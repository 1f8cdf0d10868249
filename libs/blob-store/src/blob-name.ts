import { InvalidBlobNameError } from './blob-store.errors';

// One character set that every backend stores verbatim: no percent-encoding questions on S3 (the s3rver
// emulator ignores `encoding-type=url` while the minio client decodes keys, so `+` and `%` get mangled), and
// no `.`/`..` segments or hidden files on the filesystem (the fs store keeps its temp files in `.tmp/`).
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const PREFIX_CHARS = /^[A-Za-z0-9._/-]*$/;
const MAX_NAME_LENGTH = 1024;
const MAX_SEGMENT_LENGTH = 255;

export function assertValidBlobName(name: string): void {
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidBlobNameError(String(name), 'empty');
  }
  if (name.length > MAX_NAME_LENGTH) {
    throw new InvalidBlobNameError(name, `longer than ${MAX_NAME_LENGTH} characters`);
  }
  for (const segment of name.split('/')) {
    if (segment.length === 0) {
      throw new InvalidBlobNameError(name, 'empty segment (leading, trailing or double "/")');
    }
    if (segment.length > MAX_SEGMENT_LENGTH) {
      throw new InvalidBlobNameError(name, `segment longer than ${MAX_SEGMENT_LENGTH} characters`);
    }
    if (!SEGMENT.test(segment)) {
      throw new InvalidBlobNameError(name, 'segments use [A-Za-z0-9._-] and do not start with "."');
    }
  }
}

/** A prefix may end anywhere, even mid-segment; only its characters are checked. */
export function assertValidBlobPrefix(prefix: string): void {
  if (typeof prefix !== 'string' || prefix.length > MAX_NAME_LENGTH || !PREFIX_CHARS.test(prefix)) {
    throw new InvalidBlobNameError(String(prefix), 'prefixes use [A-Za-z0-9._/-]');
  }
}
