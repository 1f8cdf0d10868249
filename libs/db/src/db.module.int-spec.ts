import { Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { PrismaClient } from '@prisma/client';
import type { Database } from './database';
import { DATABASE, DbModule, PRISMA } from './db.module';
import { createScratchDatabase } from './test/scratch-postgres';

@Injectable()
class OrgCounter {
  constructor(@Inject(PRISMA) readonly prisma: PrismaClient) {}
  count(): Promise<number> {
    return this.prisma.org.count();
  }
}

@Module({ providers: [OrgCounter], exports: [OrgCounter] })
class FeatureModule {}

describe('DbModule', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
  });
  afterAll(() => scratch?.drop());

  it('forRoot migrates, provides PRISMA to feature modules and closes the database on shutdown', async () => {
    @Module({ imports: [DbModule.forRoot({ url: scratch.url, migrate: true }), FeatureModule] })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const db = app.get<Database>(DATABASE);
    expect(app.get(OrgCounter).prisma).toBe(db.prisma);
    await expect(app.get(OrgCounter).count()).resolves.toBe(0); // the tables exist: migrated at start

    const close = jest.spyOn(db, 'close');
    await app.close();
    expect(close).toHaveBeenCalledTimes(1);
    await expect(db.prisma.org.count()).rejects.toThrow();
  });

  it('forRootAsync builds the options from injected providers', async () => {
    const URL_TOKEN = Symbol('URL');
    @Module({ providers: [{ provide: URL_TOKEN, useValue: scratch.url }], exports: [URL_TOKEN] })
    class ConfigModule {}

    @Module({
      imports: [
        DbModule.forRootAsync({
          imports: [ConfigModule],
          inject: [URL_TOKEN],
          useFactory: (url: string) => ({ url }),
        }),
      ],
    })
    class AppModule {}
    const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
    expect(app.get<Database>(DATABASE).kind).toBe('postgres');
    await expect(app.get<PrismaClient>(PRISMA).org.count()).resolves.toBe(0);
    await app.close();
  });
});
