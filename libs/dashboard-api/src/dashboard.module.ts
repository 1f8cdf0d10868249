import { type DynamicModule, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import {
  type AdminService,
  AuditLog,
  MEMBERS_SERVICE,
  type MembersService,
  SessionGuard,
} from '@router/admin';
import type { Bus } from '@router/bus';
import type { PrismaClient } from '@router/db';
import { OpenApiPartController, openApiPartProvider } from '@router/service-kit';
import { AuditController } from './audit/audit.controller';
import { CacheController } from './cache/cache.controller';
import { KeysController } from './keys/keys.controller';
import { MembersController } from './members/members.controller';
import { OrgController } from './org/org.controller';
import { PagesController } from './pages/pages.controller';
import { BreakdownsController } from './requests/breakdowns.controller';
import { RequestsController } from './requests/requests.controller';
import type { VendorPrices } from './prices';
import { apiRequestRules } from './same-site';
import { SessionController } from './session/session.controller';
import { SignInLimiter } from './session/sign-in-limits';
import { ADMIN, AUDIT_LOG, BUS, PRISMA_CLIENT, SIGN_IN_LIMITER, USAGE_PRICES, WEB_ROOT } from './tokens';
import { UsageController } from './usage/usage.controller';
import { VendorsController } from './vendors/vendors.controller';

export interface DashboardModuleOptions {
  prisma: PrismaClient;
  /** cache-service's evictions (`cache.evict.v1`). */
  bus: Bus;
  admin: AdminService;
  members: MembersService;
  prices: VendorPrices;
  signInLimiter: SignInLimiter;
  /** The front end's build output (index.html and assets/). */
  webRoot: string;
}

/** The dashboard: its `/api/...` session endpoints and its pages under `/dashboard/`. */
@Module({})
export class DashboardModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(apiRequestRules).forRoutes('api/{*path}');
  }

  static forRoot(options: DashboardModuleOptions): DynamicModule {
    return {
      module: DashboardModule,
      controllers: [
        // The session endpoints under `/api/`, whose OpenAPI entries are the dashboard's part of `/openapi.json`.
        SessionController,
        KeysController,
        OrgController,
        UsageController,
        VendorsController,
        MembersController,
        AuditController,
        CacheController,
        RequestsController,
        BreakdownsController,
        PagesController,
        OpenApiPartController,
      ],
      providers: [
        { provide: PRISMA_CLIENT, useValue: options.prisma },
        { provide: BUS, useValue: options.bus },
        { provide: ADMIN, useValue: options.admin },
        { provide: MEMBERS_SERVICE, useValue: options.members },
        { provide: USAGE_PRICES, useValue: options.prices },
        { provide: WEB_ROOT, useValue: options.webRoot },
        { provide: SIGN_IN_LIMITER, useValue: options.signInLimiter },
        { provide: AUDIT_LOG, useValue: new AuditLog(options.prisma) },
        SessionGuard,
        openApiPartProvider(),
      ],
    };
  }
}
