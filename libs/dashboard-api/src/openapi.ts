import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SESSION_SECURITY_SCHEME } from '@router/auth';

/**
 * The dashboard's part of the router's OpenAPI document: its `/api/...` session endpoints, generated from its
 * controllers and DTOs, with the session cookie as their security scheme. Served at the dashboard app's own
 * `/openapi.json`; the gateway's public `/openapi.json` is every surface's part together.
 */
export function dashboardOpenApiPart(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder().setTitle('Dashboard session endpoints').build(),
    { operationIdFactory: (controller, method) => `${controller}_${method}` },
  );
  return {
    ...document,
    openapi: '3.1.0',
    components: {
      ...document.components,
      securitySchemes: { ...document.components?.securitySchemes, session: { ...SESSION_SECURITY_SCHEME } },
    },
  };
}
