import { type DynamicModule, Module } from '@nestjs/common';
import { type AdminService, MEMBERS_SERVICE, type MembersService, SessionGuard } from '@router/admin';
import type { PrismaClient } from '@router/db';
import { KeysController } from './keys/keys.controller';
import { OrgController } from './org/org.controller';
import { PagesController } from './pages/pages.controller';
import type { VendorPrices } from './prices';
import { SessionController } from './session/session.controller';
import { ADMIN, PRISMA_CLIENT, USAGE_PRICES, WEB_ROOT } from './tokens';
import { UsageController } from './usage/usage.controller';
import { VendorsController } from './vendors/vendors.controller';

export interface DashboardModuleOptions {
  prisma: PrismaClient;
  admin: AdminService;
  members: MembersService;
  prices: VendorPrices;
  /** The front end's build output (index.html and assets/). */
  webRoot: string;
}

/** The session endpoints under `/api/`, whose OpenAPI entries native-api's `/openapi.json` includes. */
export const DASHBOARD_API_CONTROLLERS = [
  SessionController,
  KeysController,
  OrgController,
  UsageController,
  VendorsController,
];

/** The dashboard: its `/api/...` session endpoints and its pages under `/dashboard/`. */
@Module({})
export class DashboardModule {
  static forRoot(options: DashboardModuleOptions): DynamicModule {
    return {
      module: DashboardModule,
      controllers: [...DASHBOARD_API_CONTROLLERS, PagesController],
      providers: [
        { provide: PRISMA_CLIENT, useValue: options.prisma },
        { provide: ADMIN, useValue: options.admin },
        { provide: MEMBERS_SERVICE, useValue: options.members },
        { provide: USAGE_PRICES, useValue: options.prices },
        { provide: WEB_ROOT, useValue: options.webRoot },
        SessionGuard,
      ],
    };
  }
}
