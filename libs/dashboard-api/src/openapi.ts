import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { MEMBERS_SERVICE, SessionGuard } from '@router/admin';
import { DASHBOARD_API_CONTROLLERS } from './dashboard.module';
import { ADMIN, PRISMA_CLIENT, USAGE_PRICES } from './tokens';

/** The controllers alone, with nothing behind them: enough for Nest to describe their routes. */
@Module({
  controllers: DASHBOARD_API_CONTROLLERS,
  providers: [
    ...[PRISMA_CLIENT, ADMIN, MEMBERS_SERVICE, USAGE_PRICES].map((token) => ({
      provide: token,
      useValue: {},
    })),
    SessionGuard,
  ],
})
class DashboardApiDocModule {}

/**
 * The dashboard's `/api/...` endpoints as OpenAPI paths and schemas, generated from their controllers and DTOs
 * (the spec's `/openapi.json` includes them; native-api serves it, the dashboard app serves the endpoints).
 */
export async function dashboardApiDocument(): Promise<Required<Pick<OpenAPIObject, 'paths' | 'components'>>> {
  const app = await NestFactory.create(DashboardApiDocModule, { logger: false, abortOnError: false });
  try {
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build(), {
      operationIdFactory: (controller, method) => `${controller}_${method}`,
    });
    return { paths: document.paths, components: document.components ?? {} };
  } finally {
    await app.close();
  }
}
