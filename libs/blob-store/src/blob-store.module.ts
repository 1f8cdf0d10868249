import {
  type DynamicModule,
  Inject,
  type InjectionToken,
  Module,
  type ModuleMetadata,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { createBlobStore, type BlobStoreOptions } from './blob-store.factory';
import type { BlobStore } from './blob-store.interface';

/** Injection token of the process's one `BlobStore`: `@Inject(BLOB_STORE) private readonly blobs: BlobStore`. */
export const BLOB_STORE: InjectionToken<BlobStore> = Symbol('BLOB_STORE');

export interface BlobStoreModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: InjectionToken[];
  // Nest resolves `inject` into these arguments; their types are the caller's to state.
  useFactory: (...args: never[]) => BlobStoreOptions | Promise<BlobStoreOptions>;
}

async function readyStore(options: BlobStoreOptions): Promise<BlobStore> {
  const store = createBlobStore(options);
  // At start-up, so a wrong endpoint or an unwritable root fails the boot, not the first cache write.
  await store.ready();
  return store;
}

/** Global: imported once by an app's root module, injected anywhere with `BLOB_STORE`. */
@Module({})
export class BlobStoreModule implements OnApplicationShutdown {
  constructor(@Inject(BLOB_STORE) private readonly store: BlobStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }

  static forRoot(options: BlobStoreOptions): DynamicModule {
    return {
      module: BlobStoreModule,
      global: true,
      providers: [{ provide: BLOB_STORE, useFactory: () => readyStore(options) }],
      exports: [BLOB_STORE],
    };
  }

  static forRootAsync(options: BlobStoreModuleAsyncOptions): DynamicModule {
    return {
      module: BlobStoreModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        {
          provide: BLOB_STORE,
          inject: options.inject ?? [],
          useFactory: async (...args: never[]) => readyStore(await options.useFactory(...args)),
        },
      ],
      exports: [BLOB_STORE],
    };
  }
}
