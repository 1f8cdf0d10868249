import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { SessionGuard } from '@router/admin';
import { Anonymous } from '@router/service-kit';
import { VENDOR_ENTRIES, VENDOR_IDS } from '@router/vendors';

export class VendorDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String], description: "The router's ways in that the vendor's stored key enables" })
  surfaces!: string[];
}

/** Every vendor and what storing its key enables, from the registry (a vendor with a mirror adds its drop-in). */
export const VENDOR_SURFACES: readonly VendorDto[] = VENDOR_IDS.map((id) => {
  const entry = VENDOR_ENTRIES[id];
  return {
    id,
    name: entry.definition.catalogue.name,
    surfaces: [
      'POST /v1/audio/speech',
      '/v1/stream (WebSocket)',
      ...(entry.mirror ? [`the ${id} drop-in at /${id} (its own client, base URL changed)`] : []),
    ],
  };
});

@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/vendors')
@Anonymous()
@UseGuards(SessionGuard)
export class VendorsController {
  @Get()
  @ApiOperation({
    summary: 'Every vendor and the surfaces its stored key enables (store keys with /v1/provider-keys)',
  })
  @ApiOkResponse({ type: [VendorDto] })
  list(): readonly VendorDto[] {
    return VENDOR_SURFACES;
  }
}
