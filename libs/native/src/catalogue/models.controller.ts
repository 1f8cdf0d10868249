import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Anonymous } from '@router/service-kit';
import { catalogueResponse } from '@router/vendors';
import { CatalogueDto } from './catalogue.dto';

@ApiTags('catalogue')
@Controller('v1/models')
@Anonymous()
export class ModelsController {
  private readonly body = catalogueResponse();

  @Get()
  @ApiOperation({
    summary: 'Every vendor with its formats, rates, speed, models and options (no key needed)',
  })
  @ApiSecurity({})
  @ApiOkResponse({ type: CatalogueDto })
  list(): CatalogueDto {
    return this.body as CatalogueDto;
  }
}
