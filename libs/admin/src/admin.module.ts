import { type DynamicModule, Module } from '@nestjs/common';
import type { PrismaClient } from '@router/db';
import type { ChangeNotifier } from '@router/service-kit';
import {
  ADMIN_SERVICE,
  ADMIN_TOKEN,
  AdminController,
  AdminTokenGuard,
  CACHE_EVICTOR,
  type CacheEvictor,
} from './admin.controller';
import { AdminService } from './admin.service';
import type { MembersService } from './members.service';
import { MEMBERS_SERVICE } from './session.guard';

export interface AdminOptions {
  prisma: PrismaClient;
  changes: ChangeNotifier;
  members: MembersService;
  token?: string;
  /**
   * The org's evictions of its cache entries (`body` as `POST /v1/cache/evict` takes it; the entries removed),
   * where the process serves them (native-api's `CacheEviction`).
   */
  evict?: CacheEvictor;
}

/** The admin API the CLI talks to; served on its own listener, bound to loopback unless a token guards it. */
@Module({})
export class AdminModule {
  static forRoot(options: AdminOptions): DynamicModule {
    return {
      module: AdminModule,
      controllers: [AdminController],
      providers: [
        { provide: ADMIN_SERVICE, useValue: new AdminService(options.prisma, options.changes) },
        { provide: MEMBERS_SERVICE, useValue: options.members },
        { provide: ADMIN_TOKEN, useValue: options.token },
        { provide: CACHE_EVICTOR, useValue: options.evict },
        AdminTokenGuard,
      ],
    };
  }
}
