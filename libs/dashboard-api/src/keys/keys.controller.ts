import { Body, Controller, Delete, Get, Inject, Param, Post, Req, UseGuards, UsePipes } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { AdminService, ApiKeyView, SessionRequest } from '@router/admin';
import { SessionGuard } from '@router/admin';
import { RouterError } from '@router/contracts';
import { IsISO8601, IsOptional, IsString, Length } from 'class-validator';
import { Anonymous, validationPipe } from '@router/service-kit';
import { signedIn } from '../session/session.controller';
import { ADMIN } from '../tokens';
import type { ApiKey, IssuedApiKey } from '@router/dashboard-types';

export class ApiKeyDto implements ApiKey {
  @ApiProperty() id!: string;
  @ApiProperty({ description: 'What the org calls the key; empty for a key issued without a name' })
  name!: string;
  @ApiProperty({ description: 'The first characters, to tell keys apart' }) prefix!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revoked_at!: string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'From then on the key is refused (401); null: it does not expire',
  })
  expires_at!: string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'Within a minute or so: the gateway writes uses in batches',
  })
  last_used_at!: string | null;
}

export class IssueKeyBody {
  @ApiProperty({ example: 'support agent, production', minLength: 1, maxLength: 100 })
  @IsString({ message: 'name must be a string' })
  @Length(1, 100, { message: 'name must be 1 to 100 characters long' })
  name!: string;

  @ApiProperty({
    required: false,
    format: 'date-time',
    description: 'When the key stops working, ahead of now; left out, it does not expire',
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'expires_at must be a date and time like 2027-01-31T23:59:59Z' })
  expires_at?: string;
}

export class IssuedApiKeyDto extends ApiKeyDto implements IssuedApiKey {
  @ApiProperty({ description: 'The whole key, in this answer only' }) key!: string;
}

/** The org's API keys: issued (the key shown in that answer only), listed with their last use, revoked. */
@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/keys')
@Anonymous()
@UseGuards(SessionGuard)
@UsePipes(validationPipe())
export class KeysController {
  constructor(@Inject(ADMIN) private readonly admin: AdminService) {}

  @Get()
  @ApiOperation({ summary: "The org's API keys, newest first" })
  @ApiOkResponse({ type: [ApiKeyDto] })
  async list(@Req() req: SessionRequest): Promise<ApiKeyDto[]> {
    return (await this.admin.listKeys(signedIn(req).orgId)).map(toDto).reverse();
  }

  @Post()
  @ApiOperation({
    summary: 'Issue a named API key, with an expiry if wanted; the key is in this answer only',
  })
  @ApiOkResponse({ type: IssuedApiKeyDto })
  async issue(@Req() req: SessionRequest, @Body() body: IssueKeyBody): Promise<IssuedApiKeyDto> {
    if (body.name.trim() === '') throw RouterError.badRequest('name must not be blank');
    const session = signedIn(req);
    const issued = await this.admin.issueKey(session.orgId, body, session.email);
    return { ...toDto(issued), key: issued.key };
  }

  @Delete(':keyId')
  @ApiOperation({
    summary: 'Revoke a key of the org (404 for any other key); open connections with it close',
  })
  @ApiOkResponse({ type: ApiKeyDto })
  async revoke(@Req() req: SessionRequest, @Param('keyId') keyId: string): Promise<ApiKeyDto> {
    const session = signedIn(req);
    return toDto(await this.admin.revokeKey(keyId, session.orgId, session.email));
  }
}

function toDto(view: ApiKeyView): ApiKeyDto {
  return {
    id: view.id,
    name: view.name,
    prefix: view.prefix,
    created_at: view.created_at,
    revoked_at: view.revoked_at,
    expires_at: view.expires_at,
    last_used_at: view.last_used_at,
  };
}
