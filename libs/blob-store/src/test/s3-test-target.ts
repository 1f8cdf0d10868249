import { startS3Emulator } from '../s3-emulator';

export interface S3TestTarget {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /** True when the tests started their own emulator (then it is s3rver, with its quirks). */
  emulated: boolean;
  close(): Promise<void>;
}

/**
 * The S3 store the integration tests use: the one named by S3_ENDPOINT (with S3_ACCESS_KEY, S3_SECRET_KEY,
 * S3_REGION; see tools/services/ensure.sh) or else an s3rver started here on a free port in a temp dir.
 */
export async function s3TestTarget(): Promise<S3TestTarget> {
  const endpoint = process.env['S3_ENDPOINT'];
  if (endpoint) {
    return {
      endpoint,
      accessKey: process.env['S3_ACCESS_KEY'] ?? 'S3RVER',
      secretKey: process.env['S3_SECRET_KEY'] ?? 'S3RVER',
      region: process.env['S3_REGION'] ?? 'us-east-1',
      emulated: false,
      close: () => Promise.resolve(),
    };
  }
  const emulator = await startS3Emulator();
  return { ...emulator, emulated: true, close: () => emulator.close() };
}
