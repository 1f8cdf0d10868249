import {
  type DynamicModule,
  Inject,
  Injectable,
  type InjectionToken,
  Module,
  type ModuleMetadata,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { PrismaClient } from '@prisma/client';
import { createDatabase, type Database, type DatabaseOptions } from './database';

/** `@Inject(PRISMA) private readonly prisma: PrismaClient`. */
export const PRISMA: InjectionToken<PrismaClient> = Symbol('PRISMA');
/** The whole handle (kind, migrate, close), for the few that need more than the client. */
export const DATABASE: InjectionToken<Database> = Symbol('DATABASE');

export interface DbModuleOptions extends DatabaseOptions {
  /** Apply pending migrations before the app starts (the embedded PGlite needs this; services usually
   *  leave it to the migrate job). */
  migrate?: boolean;
}

export interface DbModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: InjectionToken[];
  // Nest resolves `inject` into these arguments; their types are the caller's to state.
  useFactory: (...args: never[]) => DbModuleOptions | Promise<DbModuleOptions>;
}

async function openDatabase(options: DbModuleOptions): Promise<Database> {
  const db = await createDatabase(options);
  try {
    if (options.migrate) await db.migrate();
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

@Injectable()
class DatabaseCloser implements OnApplicationShutdown {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.db.close();
  }
}

function dbModule(databaseProvider: DynamicModule['providers'], imports: ModuleMetadata['imports'] = []) {
  return {
    module: DbModule,
    global: true,
    imports,
    providers: [
      ...(databaseProvider ?? []),
      { provide: PRISMA, inject: [DATABASE], useFactory: (db: Database) => db.prisma },
      DatabaseCloser,
    ],
    exports: [PRISMA, DATABASE],
  };
}

/** Global: imported once by an app's root module; closes the database on application shutdown. */
@Module({})
export class DbModule {
  static forRoot(options: DbModuleOptions): DynamicModule {
    return dbModule([{ provide: DATABASE, useFactory: () => openDatabase(options) }]);
  }

  static forRootAsync(options: DbModuleAsyncOptions): DynamicModule {
    return dbModule(
      [
        {
          provide: DATABASE,
          inject: options.inject ?? [],
          useFactory: async (...args: never[]) => openDatabase(await options.useFactory(...args)),
        },
      ],
      options.imports,
    );
  }
}
