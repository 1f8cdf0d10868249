import { createHash } from 'node:crypto';
import { Client } from 'minio';
import type * as http from 'node:http';
import {
  Agent as HttpAgent,
  type ClientRequest,
  request as httpRequest,
  type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { assertValidBlobName, assertValidBlobPrefix } from './blob-name';
import { BlobNotFoundError } from './blob-store.errors';
import type { BlobListEntry, BlobPutMeta, BlobStat, BlobStore } from './blob-store.interface';

export interface S3BlobStoreOptions {
  /** Base URL of the S3 API, e.g. `http://127.0.0.1:4569` or `https://s3.example.internal`; no path. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /** Defaults to `us-east-1`. Given up front so the client never asks the server for the bucket's location. */
  region?: string;
  /** Keys per listing request, 1..1000 (S3's own cap). Tests lower it to exercise paging. */
  listPageSize?: number;
  /** How long `ping()` waits before answering false. */
  pingTimeoutMs?: number;
  /** Concurrent connections to the endpoint (kept alive between requests). */
  maxSockets?: number;
  /**
   * A request that moves no byte either way for this long is given up (`S3StalledError`, retryable): a store
   * that hangs (accepts connections and never answers, stops mid-transfer) fails the request as one that is
   * down, instead of holding it. A slow transfer that keeps moving is not cut. Default `S3_IDLE_TIMEOUT_MS`.
   */
  idleTimeoutMs?: number;
}

/** How long an S3 request may move no byte before it is given up. */
export const S3_IDLE_TIMEOUT_MS = 5000;

/** A request to the store that moved no byte for its idle bound. ETIMEDOUT: `isStoreUnreachable` knows it. */
export class S3StalledError extends Error {
  readonly code = 'ETIMEDOUT';

  constructor(idleMs: number) {
    super(`the S3 store sent nothing for ${idleMs} ms; request given up`);
    this.name = 'S3StalledError';
  }
}

export interface S3Endpoint {
  endPoint: string;
  port: number;
  useSSL: boolean;
}

export function parseS3Endpoint(endpoint: string): S3Endpoint {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`S3 endpoint is not a URL: ${endpoint}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`S3 endpoint must be http:// or https://, got ${url.protocol}`);
  }
  if (url.pathname !== '/' || url.search !== '' || url.username !== '' || url.password !== '') {
    throw new Error('S3 endpoint must be a bare origin (no path, query or credentials)');
  }
  const useSSL = url.protocol === 'https:';
  return {
    // URL keeps the brackets of an IPv6 literal; the minio client wants the bare address.
    endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? (useSSL ? 443 : 80) : Number(url.port),
    useSSL,
  };
}

const DEFAULT_REGION = 'us-east-1';
/** The object's own headers among what the client's stat gives; the rest is user metadata. */
const OBJECT_HEADER = /^(content-|x-amz-|cache-control$|expires$)/i;
const MAX_PAGE = 1000;
const NOT_FOUND_CODES = new Set(['NoSuchKey', 'NotFound']);
/** A request that lost its connection before any answer ("socket hang up" is an ECONNRESET). */
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE']);

function errorCode(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

export class S3BlobStore implements BlobStore {
  private readonly client: Client;
  private readonly agent: HttpAgent;
  private readonly bucket: string;
  private readonly region: string;
  private readonly pageSize: number;
  private readonly pingTimeoutMs: number;

  constructor(options: S3BlobStoreOptions) {
    const pageSize = options.listPageSize ?? MAX_PAGE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE) {
      throw new Error(`listPageSize must be an integer in 1..${MAX_PAGE}`);
    }
    this.bucket = options.bucket;
    this.region = options.region ?? DEFAULT_REGION;
    this.pageSize = pageSize;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 2000;
    const endpoint = parseS3Endpoint(options.endpoint);
    // Our own agent rather than Node's global one, so that close() can drop its idle keep-alive sockets.
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64 };
    this.agent = endpoint.useSSL ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    this.client = new Client({
      ...endpoint,
      transport: idleBounded(
        endpoint.useSSL ? httpsRequest : httpRequest,
        options.idleTimeoutMs ?? S3_IDLE_TIMEOUT_MS,
      ),
      transportAgent: this.agent,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: this.region,
      // Path-style works with every S3-compatible store and with IP endpoints; vhost-style needs DNS.
      pathStyle: true,
    });
  }

  async ready(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (err) {
      // Another replica may have created it between the two calls (s3rver answers BucketAlreadyExists even
      // to its owner): accept it only if we can now see it.
      const code = errorCode(err);
      const raced = code === 'BucketAlreadyOwnedByYou' || code === 'BucketAlreadyExists';
      if (!raced || !(await this.client.bucketExists(this.bucket))) throw err;
    }
  }

  async ping(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.pingTimeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([
        onceMoreIfLost(() => this.client.bucketExists(this.bucket)).catch(() => false),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async put(name: string, data: Buffer, meta?: BlobPutMeta): Promise<void> {
    assertValidBlobName(name);
    // One PUT of the buffer as it is, signed for what it carries: the payload's SHA-256 over plain HTTP,
    // UNSIGNED-PAYLOAD over TLS (which protects it), as the client's own putObject signs. putObject would
    // also copy the buffer through a stream and take its MD5 (unused over HTTP): ≈0.4 ms of CPU for a
    // 120 KB take, on every cache write.
    const headers: Record<string, string | number> = { 'Content-Length': data.length };
    if (meta?.contentType) headers['Content-Type'] = meta.contentType;
    for (const [name, value] of Object.entries(meta?.metadata ?? {})) headers[`x-amz-meta-${name}`] = value;
    const sha256 = this.client.enableSHA256 ? createHash('sha256').update(data).digest('hex') : '';
    const send = async (): Promise<void> => {
      const response = await this.client.makeRequestStreamAsync(
        { method: 'PUT', bucketName: this.bucket, objectName: name, headers },
        data,
        sha256,
        [200],
        this.region,
      );
      response.resume();
      await finished(response);
    };
    // Sending the same bytes to the same name again is harmless (`onceMoreIfLost`).
    await onceMoreIfLost(send);
  }

  async get(name: string): Promise<Buffer> {
    const stream = await this.getStream(name);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async getStream(name: string): Promise<Readable> {
    assertValidBlobName(name);
    try {
      return await onceMoreIfLost(() => this.client.getObject(this.bucket, name));
    } catch (err) {
      throw this.mapNotFound(name, err);
    }
  }

  async stat(name: string): Promise<BlobStat | null> {
    assertValidBlobName(name);
    try {
      const stat = await onceMoreIfLost(() => this.client.statObject(this.bucket, name));
      // The client gives user metadata by its bare name (`x-amz-meta-` cut), beside the object's own headers.
      const metaData = stat.metaData as Record<string, unknown>;
      const contentType = metaData['content-type'];
      const metadata: Record<string, string> = {};
      for (const [key, value] of Object.entries(metaData)) {
        if (!OBJECT_HEADER.test(key)) metadata[key.toLowerCase()] = String(value);
      }
      return {
        size: stat.size,
        lastModified: stat.lastModified,
        ...(typeof contentType === 'string' ? { contentType } : {}),
        metadata,
      };
    } catch (err) {
      if (NOT_FOUND_CODES.has(errorCode(err) ?? '')) return null;
      throw err;
    }
  }

  async delete(name: string): Promise<void> {
    assertValidBlobName(name);
    try {
      await onceMoreIfLost(() => this.client.removeObject(this.bucket, name));
    } catch (err) {
      if (!NOT_FOUND_CODES.has(errorCode(err) ?? '')) throw err;
    }
  }

  async *list(prefix: string): AsyncIterable<BlobListEntry> {
    assertValidBlobPrefix(prefix);
    // ListObjects v1 with a marker, not v2: s3rver 3.7.1 builds v2 continuation tokens with DES, which
    // OpenSSL 3 (Node >= 17) refuses, so every truncated v2 listing fails there with a 500.
    let marker = '';
    for (;;) {
      const page = await onceMoreIfLost(() =>
        this.client.listObjectsQuery(this.bucket, prefix, marker, {
          Delimiter: '',
          MaxKeys: this.pageSize,
          IncludeVersion: false,
        }),
      );
      for (const object of page.objects) {
        if (object.name === undefined) continue;
        yield {
          name: object.name,
          size: Number(object.size ?? 0),
          lastModified: object.lastModified ?? new Date(0),
        };
      }
      const next = page.nextMarker ?? page.objects.at(-1)?.name;
      if (!page.isTruncated || next === undefined || next === marker) return;
      marker = next;
    }
  }

  close(): Promise<void> {
    this.agent.destroy();
    return Promise.resolve();
  }

  private mapNotFound(name: string, err: unknown): unknown {
    return NOT_FOUND_CODES.has(errorCode(err) ?? '') ? new BlobNotFoundError(name, { cause: err }) : err;
  }
}

/**
 * The client's transport: Node's `request`, with every request destroyed once its socket has moved nothing
 * for `idleMs` (the minio client sets no bound of its own). Its caller sees the request fail, or the answer's
 * body end in that error.
 */
function idleBounded(request: typeof httpRequest, idleMs: number): Pick<typeof http, 'request'> {
  // The client calls it as request(options, callback).
  const bounded = (
    options: RequestOptions,
    callback?: (response: http.IncomingMessage) => void,
  ): ClientRequest => {
    const sent = request(options, callback);
    sent.setTimeout(idleMs, () => sent.destroy(new S3StalledError(idleMs)));
    return sent;
  };
  return { request: bounded as typeof httpRequest };
}

/**
 * A request whose kept-alive connection the server closed just as it went out on it (the server's idle timeout
 * racing the reuse) fails with no answer at all; it is sent once more. Only for requests that are harmless to
 * repeat: every one here is (a read, a page of a listing, a delete, a PUT of the same bytes to the same name).
 * A 408, 429 or 5xx answer is retried once inside the minio client, its default for every request; any other
 * answer is final.
 */
async function onceMoreIfLost<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (!CONNECTION_LOST.has(errorCode(err) ?? '')) throw err;
    return request();
  }
}
