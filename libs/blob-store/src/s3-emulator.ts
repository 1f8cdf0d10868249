import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface S3Emulator {
  /** e.g. `http://127.0.0.1:43817`, ready for `S3BlobStoreOptions.endpoint`. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  directory: string;
  close(): Promise<void>;
}

export interface S3EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  address?: string;
  /** Data directory; by default a fresh temp directory, removed again by `close()`. */
  directory?: string;
}

/**
 * Starts the s3rver emulator in this process, for tests and local development only. s3rver is a
 * devDependency, loaded here on first use so production code that imports this lib never needs it.
 * s3rver accepts only its built-in account, S3RVER / S3RVER.
 */
export async function startS3Emulator(options: S3EmulatorOptions = {}): Promise<S3Emulator> {
  const { default: S3rver } = await import('s3rver');
  const ownDirectory = options.directory === undefined;
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 's3rver-')));
  const server = new S3rver({
    address: options.address ?? '127.0.0.1',
    port: options.port ?? 0,
    silent: true,
    directory,
  });
  const { address, port } = await server.run();
  return {
    endpoint: `http://${address.includes(':') ? `[${address}]` : address}:${port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    region: 'us-east-1',
    directory,
    close: async () => {
      await server.close();
      if (ownDirectory) await rm(directory, { recursive: true, force: true });
    },
  };
}
