import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsBlobStore } from './fs-blob-store';
import { describeBlobStoreContract } from './test/blob-store-contract';

async function tempRoot(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'fs-blob-store-'));
}

describeBlobStoreContract('FsBlobStore', async () => {
  const root = await tempRoot();
  return {
    store: new FsBlobStore({ root: join(root, 'blobs') }),
    manyKeys: 150,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
});

describe('FsBlobStore on disk', () => {
  let root: string;
  let store: FsBlobStore;

  beforeEach(async () => {
    root = await tempRoot();
    store = new FsBlobStore({ root: join(root, 'nested', 'blobs') });
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates its root in ready() and pings false without it', async () => {
    await expect(store.ping()).resolves.toBe(false);
    await store.ready();
    await expect(store.ping()).resolves.toBe(true);
    expect((await stat(join(root, 'nested', 'blobs'))).isDirectory()).toBe(true);
  });

  it('pings false when the root is a file', async () => {
    await writeFile(join(root, 'not-a-dir'), 'x');
    await expect(new FsBlobStore({ root: join(root, 'not-a-dir') }).ping()).resolves.toBe(false);
  });

  it('keeps each blob as one file under its name, with no temp file left behind', async () => {
    await store.ready();
    await store.put('org-1/abc.mp3', Buffer.from('audio'));
    expect((await stat(join(root, 'nested', 'blobs', 'org-1', 'abc.mp3'))).size).toBe(5);
    expect(await readdir(join(root, 'nested', 'blobs', '.tmp'))).toEqual([]);
  });

  it('never shows a reader a half-written blob while it is overwritten', async () => {
    await store.ready();
    const [big, small] = [Buffer.alloc(3 * 1024 * 1024, 0xaa), Buffer.alloc(1024 * 1024, 0xbb)];
    const versions = [big, small];
    await store.put('hot/blob', big);
    let writing = true;
    const writer = (async () => {
      for (let i = 1; i <= 8; i++) await store.put('hot/blob', i % 2 === 0 ? big : small);
      writing = false;
    })();
    let reads = 0;
    while (writing) {
      const seen = await store.get('hot/blob');
      reads++;
      const whole = versions.some((v) => v.equals(seen));
      expect(whole).toBe(true);
    }
    await writer;
    expect(reads).toBeGreaterThan(0);
  });

  it('removes the temp file and leaves no blob when a put fails', async () => {
    await store.ready();
    await store.put('plain', Buffer.from('i am a file'));
    // 'plain' is a file, so 'plain/child' cannot get a parent directory.
    await expect(store.put('plain/child', Buffer.from('x'))).rejects.toMatchObject({
      code: expect.any(String),
    });
    expect(await readdir(join(root, 'nested', 'blobs', '.tmp'))).toEqual([]);
    expect((await store.get('plain')).toString()).toBe('i am a file');
  });

  it('sweeps stale temp files on ready() and keeps fresh ones', async () => {
    await store.ready();
    const tmp = join(root, 'nested', 'blobs', '.tmp');
    await writeFile(join(tmp, 'stale.part'), 'half');
    await writeFile(join(tmp, 'fresh.part'), 'half');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(join(tmp, 'stale.part'), twoHoursAgo, twoHoursAgo);
    await store.ready();
    expect(await readdir(tmp)).toEqual(['fresh.part']);
  });

  it('prunes directories that a delete leaves empty, but not the root', async () => {
    await store.ready();
    await store.put('x/y/z/blob', Buffer.from('1'));
    await store.put('x/keep', Buffer.from('2'));
    await store.delete('x/y/z/blob');
    const base = join(root, 'nested', 'blobs');
    expect((await readdir(join(base, 'x'))).sort()).toEqual(['keep']);
    await store.delete('x/keep');
    expect((await readdir(base)).sort()).toEqual(['.tmp']);
    await expect(store.ping()).resolves.toBe(true);
  });

  it('does not list its temp directory or stray hidden files', async () => {
    await store.ready();
    await store.put('a', Buffer.from('1'));
    await mkdir(join(root, 'nested', 'blobs', '.other'), { recursive: true });
    await writeFile(join(root, 'nested', 'blobs', '.other', 'f'), 'x');
    await writeFile(join(root, 'nested', 'blobs', '.tmp', 'w.part'), 'x');
    const names: string[] = [];
    for await (const entry of store.list('')) names.push(entry.name);
    expect(names).toEqual(['a']);
  });

  it('lists in ascending name order, as S3 does', async () => {
    await store.ready();
    const names = ['p/b', 'p-x', 'p/a/2', 'p0', 'p/a/1', 'p/a-1', 'q'];
    for (const name of names) await store.put(name, Buffer.from(name));
    const listed: string[] = [];
    for await (const entry of store.list('p')) listed.push(entry.name);
    expect(listed).toEqual(['p-x', 'p/a-1', 'p/a/1', 'p/a/2', 'p/b', 'p0']);
  });
});
