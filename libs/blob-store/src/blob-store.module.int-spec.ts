import { Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlobStore } from './blob-store.interface';
import { BLOB_STORE, BlobStoreModule } from './blob-store.module';
import { FsBlobStore } from './fs-blob-store';

const ROOT_FROM_CONFIG = 'ROOT_FROM_CONFIG';

@Injectable()
class UsesBlobs {
  constructor(@Inject(BLOB_STORE) readonly blobs: BlobStore) {}
}

// A feature module that does not import BlobStoreModule itself: the store must reach it (global module).
@Module({ providers: [UsesBlobs], exports: [UsesBlobs] })
class FeatureModule {}

@Module({ providers: [{ provide: ROOT_FROM_CONFIG, useValue: '' }], exports: [ROOT_FROM_CONFIG] })
class ConfigModule {}

describe('BlobStoreModule', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blob-module-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('forRoot provides one ready store under BLOB_STORE to every module', async () => {
    const root = join(dir, 'blobs');

    @Module({ imports: [BlobStoreModule.forRoot({ kind: 'fs', root }), FeatureModule] })
    class AppModule {}

    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    try {
      const store = app.get<BlobStore>(BLOB_STORE);
      expect(store).toBeInstanceOf(FsBlobStore);
      expect(app.get(UsesBlobs).blobs).toBe(store);
      // ready() ran during boot: the root exists before anything was written.
      expect((await stat(root)).isDirectory()).toBe(true);
      await store.put('org/one', Buffer.from('1'));
      expect((await store.get('org/one')).toString()).toBe('1');
    } finally {
      await app.close();
    }
  });

  it('closes the store when the app shuts down', async () => {
    @Module({ imports: [BlobStoreModule.forRoot({ kind: 'fs', root: join(dir, 'closing') })] })
    class AppModule {}

    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const close = jest.spyOn(app.get<BlobStore>(BLOB_STORE), 'close');
    expect(close).not.toHaveBeenCalled();
    await app.close();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('forRootAsync builds the options from injected providers', async () => {
    const root = join(dir, 'async-blobs');

    @Module({
      imports: [
        BlobStoreModule.forRootAsync({
          imports: [ConfigModule],
          inject: [ROOT_FROM_CONFIG],
          useFactory: (fromConfig: string) => ({ kind: 'fs', root: fromConfig || root }),
        }),
        FeatureModule,
      ],
    })
    class AppModule {}

    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    try {
      await expect(app.get(UsesBlobs).blobs.ping()).resolves.toBe(true);
      expect((await stat(root)).isDirectory()).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('fails the boot when the store cannot be made ready', async () => {
    const file = join(dir, 'a-file');
    await new FsBlobStore({ root: dir }).put('a-file', Buffer.from('x'));

    @Module({ imports: [BlobStoreModule.forRoot({ kind: 'fs', root: join(file, 'under') })] })
    class AppModule {}

    await expect(
      NestFactory.createApplicationContext(AppModule, { logger: false, abortOnError: false }),
    ).rejects.toThrow();
  });
});
