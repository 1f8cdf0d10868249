import { Controller, Get, Inject, Query, Req, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiQuery, ApiTags } from '@nestjs/swagger';
import { AUDIT_PAGE_MAX, type AuditLog, SessionGuard, type SessionRequest } from '@router/admin';
import { RouterError } from '@router/contracts';
import { Anonymous } from '@router/service-kit';
import { signedIn } from '../session/session.controller';
import { AUDIT_LOG } from '../tokens';
import type { AuditEvent } from '@router/dashboard-types';

export class AuditEventDto implements AuditEvent {
  @ApiProperty() id!: string;
  @ApiProperty({ description: "The member's address, an API key, or the operator (admin CLI)" })
  actor!: string;
  @ApiProperty({ example: 'api_key.issued' }) action!: string;
  @ApiProperty({ example: 'support agent (rtr_AbCdEf…)' }) target!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** Who changed what in the org, and when: every member sees it. */
@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/audit')
@Anonymous()
@UseGuards(SessionGuard)
export class AuditController {
  constructor(@Inject(AUDIT_LOG) private readonly audit: AuditLog) {}

  @Get()
  @ApiOperation({ summary: "The org's audit list, newest first; `before` pages back" })
  @ApiQuery({ name: 'limit', required: false, description: `1 to ${AUDIT_PAGE_MAX}, default 50` })
  @ApiQuery({ name: 'before', required: false, description: 'Only events older than this date-time' })
  @ApiOkResponse({ type: [AuditEventDto] })
  list(
    @Req() req: SessionRequest,
    @Query('limit') limit?: string,
    @Query('before') before?: string,
  ): Promise<AuditEventDto[]> {
    const count = limit === undefined ? 50 : Number(limit);
    if (!Number.isInteger(count) || count < 1 || count > AUDIT_PAGE_MAX) {
      throw RouterError.badRequest(`limit must be a whole number from 1 to ${AUDIT_PAGE_MAX}`);
    }
    const older = before === undefined ? undefined : new Date(before);
    if (older !== undefined && Number.isNaN(older.getTime())) {
      throw RouterError.badRequest('before must be a date and time like 2026-11-28T12:00:00Z');
    }
    return this.audit.list(signedIn(req).orgId, { limit: count, ...(older ? { before: older } : {}) });
  }
}
