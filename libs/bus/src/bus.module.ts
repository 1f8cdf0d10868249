import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import type { Bus } from './bus.interface';
import { isBus, type BusOptions } from './bus.options';
import { createBus } from './create-bus';

/** Injection token of the Bus: `@Inject(BUS) private readonly bus: Bus`. */
export const BUS = Symbol('BUS');

/** Options, or a bus built elsewhere (standalone mode shares one in-process bus between composed apps). */
export type BusModuleOptions = BusOptions | Bus;

const BUS_HOLDER = Symbol('BUS_HOLDER');

interface BusHolder {
  bus: Bus;
  /** Only a bus this module created is closed with the app; a shared one belongs to whoever made it. */
  owned: boolean;
}

function hold(options: BusModuleOptions): BusHolder {
  return isBus(options) ? { bus: options, owned: false } : { bus: createBus(options), owned: true };
}

@Injectable()
class BusShutdown implements OnApplicationShutdown {
  constructor(@Inject(BUS_HOLDER) private readonly holder: BusHolder) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.holder.owned) await this.holder.bus.close();
  }
}

export interface BusModuleAsyncOptions {
  imports?: DynamicModule['imports'];
  inject?: Array<string | symbol | (abstract new (...args: never[]) => unknown)>;
  useFactory: (...args: never[]) => BusModuleOptions | Promise<BusModuleOptions>;
}

/** Provides the Bus under `BUS` to the whole app (global), closing it on shutdown when it created it. */
@Module({})
export class BusModule {
  static forRoot(options: BusModuleOptions): DynamicModule {
    return BusModule.build({ provide: BUS_HOLDER, useValue: hold(options) });
  }

  static forRootAsync(options: BusModuleAsyncOptions): DynamicModule {
    return BusModule.build(
      {
        provide: BUS_HOLDER,
        inject: options.inject ?? [],
        useFactory: async (...args: never[]) => hold(await options.useFactory(...args)),
      },
      options.imports,
    );
  }

  private static build(holder: Provider, imports?: DynamicModule['imports']): DynamicModule {
    return {
      module: BusModule,
      global: true,
      imports: imports ?? [],
      providers: [
        holder,
        { provide: BUS, inject: [BUS_HOLDER], useFactory: (h: BusHolder) => h.bus },
        BusShutdown,
      ],
      exports: [BUS],
    };
  }
}
