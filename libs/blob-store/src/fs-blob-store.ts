import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, open, readFile, readdir, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { assertValidBlobName, assertValidBlobPrefix } from './blob-name';
import { BlobNotFoundError } from './blob-store.errors';
import type { BlobListEntry, BlobStat, BlobStore } from './blob-store.interface';

export interface FsBlobStoreOptions {
  /** Directory that holds the blobs; created by `ready()`. */
  root: string;
  /** Flush each blob to disk before it takes its final name, so even a power cut leaves no torn blob. */
  fsync?: boolean;
  /** Temp files older than this (left by a crashed writer) are removed by `ready()`. */
  staleTempMs?: number;
}

// Blob names cannot start a segment with '.', so this directory can never collide with a blob.
const TEMP_DIR = '.tmp';
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

function fsCode(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function isAbsent(err: unknown): boolean {
  return ABSENT.has(fsCode(err) ?? '');
}

/**
 * Blobs as plain files under one root, the name's segments as directories. For the single-process
 * (standalone) mode; several processes may share the root, but the S3 store is the one for scaling out.
 * A name cannot be both a blob and a directory here (S3 allows `a` and `a/b` side by side).
 */
export class FsBlobStore implements BlobStore {
  private readonly root: string;
  private readonly tempDir: string;
  private readonly fsync: boolean;
  private readonly staleTempMs: number;

  constructor(options: FsBlobStoreOptions) {
    this.root = resolve(options.root);
    this.tempDir = join(this.root, TEMP_DIR);
    this.fsync = options.fsync ?? true;
    this.staleTempMs = options.staleTempMs ?? 60 * 60 * 1000;
  }

  async ready(): Promise<void> {
    await mkdir(this.tempDir, { recursive: true });
    const cutoff = Date.now() - this.staleTempMs;
    for (const entry of await readdir(this.tempDir)) {
      const path = join(this.tempDir, entry);
      try {
        if ((await stat(path)).mtimeMs < cutoff) await rm(path, { force: true, recursive: true });
      } catch (err) {
        if (!isAbsent(err)) throw err;
      }
    }
  }

  async ping(): Promise<boolean> {
    try {
      await access(this.root, constants.R_OK | constants.W_OK);
      return (await stat(this.root)).isDirectory();
    } catch {
      return false;
    }
  }

  async put(name: string, data: Buffer): Promise<void> {
    const target = this.pathOf(name);
    await mkdir(this.tempDir, { recursive: true });
    const temp = join(this.tempDir, `${randomUUID()}.part`);
    let moved = false;
    try {
      const handle = await open(temp, 'wx');
      try {
        await handle.writeFile(data);
        if (this.fsync) await handle.datasync();
      } finally {
        await handle.close();
      }
      // A concurrent delete may prune the freshly made parent directory before the rename: retry once.
      for (let attempt = 0; ; attempt++) {
        await mkdir(dirname(target), { recursive: true });
        try {
          await rename(temp, target);
          moved = true;
          return;
        } catch (err) {
          if (fsCode(err) !== 'ENOENT' || attempt >= 2) throw err;
        }
      }
    } finally {
      if (!moved) await rm(temp, { force: true });
    }
  }

  async get(name: string): Promise<Buffer> {
    const path = this.pathOf(name);
    try {
      return await readFile(path);
    } catch (err) {
      throw isAbsent(err) ? new BlobNotFoundError(name, { cause: err }) : err;
    }
  }

  async getStream(name: string): Promise<Readable> {
    const path = this.pathOf(name);
    // Open first so a missing blob rejects here rather than as a stream error after the caller has committed.
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      throw isAbsent(err) ? new BlobNotFoundError(name, { cause: err }) : err;
    }
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new BlobNotFoundError(name);
    }
    return handle.createReadStream();
  }

  async stat(name: string): Promise<BlobStat | null> {
    // `new Date(mtimeMs)`, not `mtime`: fs builds its Dates in Node's own realm, where `instanceof Date`
    // fails for code running in another one (a Jest sandbox, a vm context).
    const path = this.pathOf(name);
    try {
      const info = await stat(path);
      return info.isFile() ? { size: info.size, lastModified: new Date(info.mtimeMs) } : null;
    } catch (err) {
      if (isAbsent(err)) return null;
      throw err;
    }
  }

  async delete(name: string): Promise<void> {
    const path = this.pathOf(name);
    try {
      await unlink(path);
    } catch (err) {
      if (isAbsent(err)) return;
      throw err;
    }
    await this.pruneEmptyParents(dirname(path));
  }

  async *list(prefix: string): AsyncIterable<BlobListEntry> {
    assertValidBlobPrefix(prefix);
    const cut = prefix.lastIndexOf('/');
    const base = cut === -1 ? '' : prefix.slice(0, cut + 1);
    yield* this.walk(base, prefix);
  }

  /** `dirName` is '' or ends with '/'. Yields in ascending name order, the order S3 lists in. */
  private async *walk(dirName: string, prefix: string): AsyncGenerator<BlobListEntry> {
    let entries;
    try {
      entries = await readdir(join(this.root, ...dirName.split('/')), { withFileTypes: true });
    } catch (err) {
      if (isAbsent(err)) return;
      throw err;
    }
    // Sorting a directory as `name/` puts `a-b` before `a/…` and `a0` after it, as a flat key sort would.
    const sorted = entries
      .filter((entry) => !entry.name.startsWith('.') && (entry.isFile() || entry.isDirectory()))
      .map((entry) => ({ entry, key: dirName + entry.name + (entry.isDirectory() ? '/' : '') }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { entry, key } of sorted) {
      if (entry.isDirectory()) {
        if (key.startsWith(prefix) || prefix.startsWith(key)) yield* this.walk(key, prefix);
      } else if (key.startsWith(prefix)) {
        try {
          const info = await stat(join(this.root, ...key.split('/')));
          yield { name: key, size: info.size, lastModified: new Date(info.mtimeMs) };
        } catch (err) {
          // Deleted between readdir and stat: it is simply not there any more.
          if (!isAbsent(err)) throw err;
        }
      }
    }
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private async pruneEmptyParents(dir: string): Promise<void> {
    for (
      let current = dir;
      current !== this.root && current.startsWith(this.root);
      current = dirname(current)
    ) {
      try {
        await rmdir(current);
      } catch {
        // Not empty (or already gone, or refilled by a concurrent put): stop pruning.
        return;
      }
    }
  }

  private pathOf(name: string): string {
    assertValidBlobName(name);
    return join(this.root, ...name.split('/'));
  }
}
