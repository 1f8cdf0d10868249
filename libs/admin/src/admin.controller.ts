import {
  Body,
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Inject,
  Injectable,
  Param,
  Patch,
  Post,
  UseGuards,
  UsePipes,
} from '@nestjs/common';
import type { Request } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { readBearer } from '@router/auth';
import { RouterError } from '@router/contracts';
import { Public, validationPipe } from '@router/service-kit';
import { CreateOrgBody, MemberEmailBody, UpdateOrgBody } from './admin.dto';
import type { AdminService } from './admin.service';
import type { MembersService } from './members.service';
import { MEMBERS_SERVICE } from './session.guard';

export const ADMIN_SERVICE = Symbol('ADMIN_SERVICE');
export const ADMIN_TOKEN = Symbol('ADMIN_TOKEN');

/** With an admin token configured, every admin call must carry it; without one, the API is loopback-only. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(ADMIN_TOKEN) private readonly token: string | undefined) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.token === undefined) return true;
    const given = Buffer.from(
      readBearer(context.switchToHttp().getRequest<Request>().headers.authorization) ?? '',
    );
    const expected = Buffer.from(this.token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw RouterError.unauthorized('The admin token is missing or wrong.');
    }
    return true;
  }
}

@Controller('admin')
@Public()
@UseGuards(AdminTokenGuard)
@UsePipes(validationPipe())
export class AdminController {
  constructor(
    @Inject(ADMIN_SERVICE) private readonly admin: AdminService,
    @Inject(MEMBERS_SERVICE) private readonly members: MembersService,
  ) {}

  @Get('orgs')
  listOrgs() {
    return this.admin.listOrgs();
  }

  @Post('orgs')
  createOrg(@Body() body: CreateOrgBody) {
    return this.admin.createOrg(body);
  }

  @Get('orgs/:orgId')
  getOrg(@Param('orgId') orgId: string) {
    return this.admin.getOrg(orgId);
  }

  @Patch('orgs/:orgId')
  updateOrg(@Param('orgId') orgId: string, @Body() body: UpdateOrgBody) {
    return this.admin.updateOrg(orgId, body);
  }

  @Get('orgs/:orgId/keys')
  listKeys(@Param('orgId') orgId: string) {
    return this.admin.listKeys(orgId);
  }

  @Post('orgs/:orgId/keys')
  issueKey(@Param('orgId') orgId: string) {
    return this.admin.issueKey(orgId);
  }

  @Post('keys/:keyId/revoke')
  revokeKey(@Param('keyId') keyId: string) {
    return this.admin.revokeKey(keyId);
  }

  @Get('orgs/:orgId/members')
  async listMembers(@Param('orgId') orgId: string) {
    await this.admin.getOrg(orgId);
    return this.members.listMembers(orgId);
  }

  /** A new member of the org, with the one-time code of their first sign-in. */
  @Post('orgs/:orgId/members')
  addMember(@Param('orgId') orgId: string, @Body() body: MemberEmailBody) {
    return this.members.addMember(orgId, body.email);
  }

  /** A new one-time sign-in code for a member (the address in the body, not the path). */
  @Post('members/code')
  issueCode(@Body() body: MemberEmailBody) {
    return this.members.issueCode(body.email);
  }
}
