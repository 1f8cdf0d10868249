import { Controller, Get, Inject, Query, Req, Res, UseGuards } from '@nestjs/common';
import { SessionGuard, SessionOrApiKey } from '@router/admin';
import {
  ApiBadRequestResponse,
  ApiCookieAuth,
  ApiGatewayTimeoutResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { Anonymous, type IdentifiedRequest } from '@router/service-kit';
import { VOICE_VENDORS } from '@router/vendors';
import { orgOf } from '../provider-keys/provider-keys.controller';
import { VOICES_SERVICE } from '../tokens';
import { VoicesResponseDto } from './voice.dto';
import { parseVoicesQuery } from './voices.query';
import type { VoicesService } from './voices.service';

@ApiTags('catalogue')
@ApiSecurity('bearer')
@ApiCookieAuth('session')
@Controller('v1/voices')
// The dashboard's playground reads the voices through the member's session (any member: it changes nothing).
@Anonymous()
@SessionOrApiKey()
@UseGuards(SessionGuard)
export class VoicesController {
  constructor(@Inject(VOICES_SERVICE) private readonly voices: VoicesService) {}

  @Get()
  @ApiOperation({
    summary: "The voices the router can speak with for one vendor, read live with the org's stored key",
    description:
      'Every page of the vendor list is read; nothing is cached. vendor_a and vendor_d list the router catalogue ' +
      "voices (still only with a stored key); vendor_e's model lists are public, so a wrong stored vendor_e key " +
      'still lists voices.',
  })
  @ApiQuery({
    name: 'model',
    required: false,
    type: String,
    description: 'A router model id without the vendor, e.g. `a_model_2`: only the voices that model takes',
  })
  // Listed last: decorators apply bottom-up, and the document should name provider first.
  @ApiQuery({ name: 'provider', required: true, enum: VOICE_VENDORS })
  @ApiOkResponse({ type: VoicesResponseDto })
  @ApiBadRequestResponse({
    description:
      '`bad_request` (missing or unknown provider or model, any other parameter), `provider_key_missing`, or ' +
      '`provider_rejected` with `provider_status` (e.g. a wrong stored key)',
  })
  @ApiGatewayTimeoutResponse({ description: '`provider_timeout`: the vendor did not answer in time' })
  async list(
    @Req() req: IdentifiedRequest,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<VoicesResponseDto> {
    const orgId = orgOf(req);
    const parsed = parseVoicesQuery(query);
    // A client that leaves stops the read at the vendor.
    const gone = new AbortController();
    const onClose = (): void => {
      if (!res.writableFinished) gone.abort(new Error('client gone'));
    };
    res.once('close', onClose);
    return (await this.voices.list(orgId, parsed, gone.signal)) as VoicesResponseDto;
  }
}
