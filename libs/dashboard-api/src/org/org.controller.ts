import { Body, Controller, Get, Inject, Put, Req, UseGuards, UsePipes } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import {
  type AdminService,
  IsRetention,
  type OrgView,
  OwnersOnly,
  SessionGuard,
  type SessionRequest,
} from '@router/admin';
import { Anonymous, validationPipe } from '@router/service-kit';
import { signedIn } from '../session/session.controller';
import { ADMIN } from '../tokens';
import type { Org } from '@router/dashboard-types';

export class OrgDto implements Org {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: '0 (off) or 1 to 3650 days after last use' }) retention_days!: number;
  @ApiProperty({ enum: ['in', 'out'], description: 'out: new requests and connections are refused (402)' })
  credit!: 'in' | 'out';
  @ApiProperty() disabled!: boolean;
}

export class RetentionBody {
  @ApiProperty({ minimum: 0, maximum: 3650, description: '0 (off) or 1 to 3650 days' })
  @IsRetention()
  retention_days!: number;
}

/** The signed-in member's org: what it is, and its retention. Credit is the operator's (admin CLI). */
@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/org')
@Anonymous()
@UseGuards(SessionGuard)
@UsePipes(validationPipe())
export class OrgController {
  constructor(@Inject(ADMIN) private readonly admin: AdminService) {}

  @Get()
  @ApiOperation({ summary: "The member's org: retention, credit state, whether disabled" })
  @ApiOkResponse({ type: OrgDto })
  async get(@Req() req: SessionRequest): Promise<OrgDto> {
    return toDto(await this.admin.getOrg(signedIn(req).orgId));
  }

  @Put('retention')
  @OwnersOnly()
  @ApiOperation({ summary: "Set the org's retention; it applies to everything cached already" })
  @ApiOkResponse({ type: OrgDto })
  async setRetention(@Req() req: SessionRequest, @Body() body: RetentionBody): Promise<OrgDto> {
    const session = signedIn(req);
    return toDto(
      await this.admin.updateOrg(session.orgId, { retention_days: body.retention_days }, session.email),
    );
  }
}

function toDto(org: OrgView): OrgDto {
  return {
    id: org.id,
    name: org.name,
    retention_days: org.retention_days,
    credit: org.credit,
    disabled: org.disabled,
  };
}
