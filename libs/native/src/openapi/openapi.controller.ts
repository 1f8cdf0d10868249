import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Anonymous } from '@router/service-kit';
import { OPENAPI_DOCUMENT } from '../tokens';

@ApiExcludeController()
@Controller('openapi.json')
@Anonymous()
export class OpenApiController {
  constructor(@Inject(OPENAPI_DOCUMENT) private readonly document: { current: unknown }) {}

  @Get()
  get(): unknown {
    return this.document.current;
  }
}
