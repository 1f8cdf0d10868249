import { Client } from 'minio';

export interface S3Settings {
  endpoint: string;
  accessKey: string;
  secretKey: string;
}

function clientOf(s3: S3Settings): Client {
  const url = new URL(s3.endpoint);
  const useSSL = url.protocol === 'https:';
  return new Client({
    endPoint: url.hostname,
    port: url.port === '' ? (useSSL ? 443 : 80) : Number(url.port),
    useSSL,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    region: 'us-east-1',
  });
}

/**
 * Removes a benchmark's bucket with every object in it. A run leaves thousands of takes (≈2 GB over a
 * dozen runs on the shared S3 emulator), none of which any later run reads.
 */
export async function dropBucket(s3: S3Settings, bucket: string): Promise<number> {
  const client = clientOf(s3);
  if (!(await client.bucketExists(bucket))) return 0;
  const names: string[] = [];
  // Version 1 listing: the S3 emulator answers 500 to paged V2 listings of large buckets.
  for await (const item of client.listObjects(bucket, '', true) as AsyncIterable<{ name?: string }>) {
    if (item.name) names.push(item.name);
  }
  // S3 takes at most 1000 keys per multi-object delete.
  for (let i = 0; i < names.length; i += 1000) await client.removeObjects(bucket, names.slice(i, i + 1000));
  await client.removeBucket(bucket);
  return names.length;
}

/** The buckets whose names start with `prefix` (for cleaning up after runs that were killed). */
export async function bucketsNamed(s3: S3Settings, prefix: string): Promise<string[]> {
  const buckets = await clientOf(s3).listBuckets();
  return buckets.map((b) => b.name).filter((name) => name.startsWith(prefix));
}
