import { Controller, Get, Inject, type INestApplication, type Provider } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Anonymous } from './identity.guard';

/** The path each surface serves its OpenAPI part at, behind the gateway (which serves the whole document). */
export const OPENAPI_PART_PATH = '/openapi.json';

const OPENAPI_PART = Symbol('OPENAPI_PART');

/**
 * A surface's part of the router's OpenAPI document (its own endpoints, schemas and security schemes), at its
 * own `/openapi.json`. The gateway asks each surface for its part (anonymous, signed) and serves the router's
 * one document made of them all, so no surface's code needs another's. Filled once the app's routes exist
 * (`fillOpenApiPart`), since the part is generated from them.
 */
@ApiExcludeController()
@Controller(OPENAPI_PART_PATH.slice(1))
@Anonymous()
export class OpenApiPartController {
  constructor(@Inject(OPENAPI_PART) private readonly part: { current: unknown }) {}

  @Get()
  get(): unknown {
    return this.part.current;
  }
}

/** The holder of one app's part, for its module's providers (one per app: the standalone process runs several). */
export function openApiPartProvider(): Provider {
  return { provide: OPENAPI_PART, useValue: { current: null } };
}

/** Puts the app's part, generated from its routes, where `OpenApiPartController` serves it. */
export function fillOpenApiPart(app: INestApplication, part: unknown): void {
  app.get<{ current: unknown }>(OPENAPI_PART).current = part;
}
