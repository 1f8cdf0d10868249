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
import { readBearer, sameSecret } from '@router/auth';
import { RouterError } from '@router/contracts';
import { Public, validationPipe } from '@router/service-kit';
import { CreateOrgBody, IssueKeyBody, MemberEmailBody, UpdateOrgBody } from './admin.dto';
import type { AdminService } from './admin.service';
import type { MembersService } from './members.service';
import { MEMBERS_SERVICE } from './session.guard';

export const ADMIN_SERVICE = Symbol('ADMIN_SERVICE');
export const CACHE_EVICTOR = Symbol('CACHE_EVICTOR');

/** Evicts entries of an org's cache as `POST /v1/cache/evict` reads `body`; resolves to the entries removed. */
export type CacheEvictor = (orgId: string, body: unknown) => Promise<number>;
export const ADMIN_TOKEN = Symbol('ADMIN_TOKEN');

/** With an admin token configured, every admin call must carry it; without one, the API is loopback-only. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(ADMIN_TOKEN) private readonly token: string | undefined) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.token === undefined) return true;
    const given = readBearer(context.switchToHttp().getRequest<Request>().headers.authorization) ?? '';
    if (!sameSecret(given, this.token)) {
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
    @Inject(CACHE_EVICTOR) private readonly evictor: CacheEvictor | undefined,
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
  issueKey(@Param('orgId') orgId: string, @Body() body: IssueKeyBody) {
    return this.admin.issueKey(orgId, body);
  }

  /** Evicts the org's cache entries: `{request}`, `{sentence}` or `{all: true}` (docs/cache-eviction.md). */
  @Post('orgs/:orgId/cache/evict')
  async evictCache(@Param('orgId') orgId: string, @Body() body: unknown) {
    if (!this.evictor) throw new RouterError('internal', 'This process does not serve cache evictions.');
    await this.admin.getOrg(orgId);
    return { evicted: await this.evictor(orgId, body) };
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
