import { Controller, Delete, Get, Inject, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { AdminService, ApiKeyView, SessionRequest } from '@router/admin';
import { SessionGuard } from '@router/admin';
import { Anonymous } from '@router/service-kit';
import { signedIn } from '../session/session.controller';
import { ADMIN } from '../tokens';

export class ApiKeyDto {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'The first characters, to tell keys apart' }) prefix!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'Within a minute or so: the gateway writes uses in batches',
  })
  last_used_at!: string | null;
}

export class IssuedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The whole key, in this answer only' }) key!: string;
}

/** The org's API keys: issued (the key shown in that answer only), listed with their last use, revoked. */
@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/keys')
@Anonymous()
@UseGuards(SessionGuard)
export class KeysController {
  constructor(@Inject(ADMIN) private readonly admin: AdminService) {}

  @Get()
  @ApiOperation({ summary: "The org's API keys, newest first" })
  @ApiOkResponse({ type: [ApiKeyDto] })
  async list(@Req() req: SessionRequest): Promise<ApiKeyDto[]> {
    return (await this.admin.listKeys(signedIn(req).orgId)).map(toDto).reverse();
  }

  @Post()
  @ApiOperation({ summary: 'Issue an API key; the key is in this answer only' })
  @ApiOkResponse({ type: IssuedApiKeyDto })
  async issue(@Req() req: SessionRequest): Promise<IssuedApiKeyDto> {
    const issued = await this.admin.issueKey(signedIn(req).orgId);
    return { ...toDto(issued), key: issued.key };
  }

  @Delete(':keyId')
  @ApiOperation({
    summary: 'Revoke a key of the org (404 for any other key); open connections with it close',
  })
  @ApiOkResponse({ type: ApiKeyDto })
  async revoke(@Req() req: SessionRequest, @Param('keyId') keyId: string): Promise<ApiKeyDto> {
    return toDto(await this.admin.revokeKey(keyId, signedIn(req).orgId));
  }
}

function toDto(view: ApiKeyView): ApiKeyDto {
  return {
    id: view.id,
    prefix: view.prefix,
    created_at: view.created_at,
    revoked_at: view.revoked_at,
    last_used_at: view.last_used_at,
  };
}
