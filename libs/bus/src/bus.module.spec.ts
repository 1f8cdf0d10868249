import 'reflect-metadata';
import { Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Bus } from './bus.interface';
import { BUS, BusModule } from './bus.module';
import { InProcessBus } from './in-process-bus';

@Injectable()
class NeedsBus {
  constructor(@Inject(BUS) readonly bus: Bus) {}
}

@Module({ providers: [NeedsBus] })
class FeatureModule {}

async function appWith(busModule: ReturnType<typeof BusModule.forRoot>) {
  @Module({ imports: [busModule, FeatureModule] })
  class RootModule {}
  return NestFactory.createApplicationContext(RootModule, { logger: false });
}

describe('BusModule', () => {
  it('creates the bus from options, provides it globally and closes it on shutdown', async () => {
    const app = await appWith(BusModule.forRoot({ kind: 'memory' }));
    const bus = app.get(NeedsBus).bus;
    expect(bus).toBeInstanceOf(InProcessBus);
    expect(app.get<Bus>(BUS)).toBe(bus);
    expect(bus.status()).toBe('connected');
    await app.close();
    expect(bus.status()).toBe('closed');
  });

  it('shares a given bus between apps composed in one process and leaves closing it to its owner', async () => {
    const shared = new InProcessBus();
    const first = await appWith(BusModule.forRoot(shared));
    const second = await appWith(BusModule.forRoot(shared));
    expect(first.get(NeedsBus).bus).toBe(shared);
    expect(second.get(NeedsBus).bus).toBe(shared);
    await first.close();
    expect(shared.status()).toBe('connected');
    await second.close();
    expect(shared.status()).toBe('connected');
    await shared.close();
  });

  it('forRootAsync builds the options from injected config', async () => {
    const CONFIG = Symbol('CONFIG');
    @Module({ providers: [{ provide: CONFIG, useValue: { prefix: 'cfg' } }], exports: [CONFIG] })
    class ConfigModule {}
    const app = await appWith(
      BusModule.forRootAsync({
        imports: [ConfigModule],
        inject: [CONFIG],
        useFactory: (config: { prefix: string }) => ({ kind: 'memory', prefix: config.prefix }),
      }),
    );
    const bus = app.get(NeedsBus).bus;
    expect(
      bus.serve({ kind: 'request', subject: 'a.b.v1', request: () => ({}), reply: () => ({}) }, () => ({}))
        .subject,
    ).toBe('cfg.a.b.v1');
    await app.close();
    expect(bus.status()).toBe('closed');
  });
});
