import { Controller, Delete, Get, HttpCode, Inject, Query, Req, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type AuditLog, OwnersOnly, SessionGuard, type SessionRequest } from '@router/admin';
import type { Bus } from '@router/bus';
import { cacheEvictV1, RouterError } from '@router/contracts';
import type { PrismaClient } from '@router/db';
import { Anonymous } from '@router/service-kit';
import { signedIn } from '../session/session.controller';
import { AUDIT_LOG, BUS, PRISMA_CLIENT } from '../tokens';
import type { CacheHoldings, CachePurge, CacheVendor, RetentionPreview } from '@router/dashboard-types';

const DAY_MS = 24 * 60 * 60 * 1000;
const MAX_RETENTION_DAYS = 3650;

export class CacheVendorDto implements CacheVendor {
  @ApiProperty() provider!: string;
  @ApiProperty({ description: 'Cache entries (takes) held' }) entries!: number;
  @ApiProperty({ description: 'Bytes of audio held' }) bytes!: number;
}

export class CacheHoldingsDto implements CacheHoldings {
  @ApiProperty({ type: [CacheVendorDto] }) vendors!: CacheVendorDto[];
  @ApiProperty() entries!: number;
  @ApiProperty() bytes!: number;
}

export class RetentionPreviewDto extends CacheHoldingsDto implements RetentionPreview {
  @ApiProperty({ description: 'The retention previewed, in days' }) retention_days!: number;
}

export class PurgeDto implements CachePurge {
  @ApiProperty({ description: 'How many cache entries were removed' }) evicted!: number;
}

interface HeldRow {
  provider: string;
  entries: bigint;
  bytes: bigint | null;
}

/**
 * The org's cache: what it holds per vendor, what a retention change would delete, and a purge of all of it
 * (cache-service's `cache.evict.v1`, as `DELETE /v1/cache` and the admin CLI evict). Never a sentence: entries
 * are counted, not named.
 */
@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/cache')
@Anonymous()
@UseGuards(SessionGuard)
export class CacheController {
  constructor(
    @Inject(PRISMA_CLIENT) private readonly prisma: PrismaClient,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(AUDIT_LOG) private readonly audit: AuditLog,
  ) {}

  @Get()
  @ApiOperation({ summary: "Entries and bytes the org's cache holds, per vendor" })
  @ApiOkResponse({ type: CacheHoldingsDto })
  async holdings(@Req() req: SessionRequest): Promise<CacheHoldingsDto> {
    const orgId = signedIn(req).orgId;
    return holdings(
      await this.prisma.$queryRaw<HeldRow[]>`
        SELECT provider, count(*) AS entries, sum(byte_size) AS bytes FROM cache_entries
        WHERE org_id = ${orgId}::uuid GROUP BY provider ORDER BY provider`,
    );
  }

  @Get('retention-preview')
  @ApiOperation({
    summary:
      'What a retention of `retention_days` would delete now (entries unused for longer; all at 0), per vendor, ' +
      'before it is saved',
  })
  @ApiQuery({ name: 'retention_days', description: `0 (off) or 1 to ${MAX_RETENTION_DAYS}` })
  @ApiOkResponse({ type: RetentionPreviewDto })
  async preview(
    @Req() req: SessionRequest,
    @Query('retention_days') days?: unknown,
  ): Promise<RetentionPreviewDto> {
    // A repeated parameter arrives as an array: refused like any other value that is not one whole number.
    const retention = typeof days === 'string' && days.trim() !== '' ? Number(days) : NaN;
    if (!Number.isInteger(retention)) {
      throw RouterError.badRequest(`retention_days must be a whole number: 0 or 1 to ${MAX_RETENTION_DAYS}`);
    }
    if (retention < 0 || retention > MAX_RETENTION_DAYS) {
      throw RouterError.badRequest(`retention_days must be 0 (off) or 1 to ${MAX_RETENTION_DAYS}`);
    }
    const orgId = signedIn(req).orgId;
    // The retention sweep's own rule (libs/cache retention-sweep): unused for longer than the retention.
    const cutoff = new Date(Date.now() - retention * DAY_MS);
    const rows =
      retention === 0
        ? await this.prisma.$queryRaw<HeldRow[]>`
            SELECT provider, count(*) AS entries, sum(byte_size) AS bytes FROM cache_entries
            WHERE org_id = ${orgId}::uuid GROUP BY provider ORDER BY provider`
        : await this.prisma.$queryRaw<HeldRow[]>`
            SELECT provider, count(*) AS entries, sum(byte_size) AS bytes FROM cache_entries
            WHERE org_id = ${orgId}::uuid AND last_used_at < ${cutoff}
            GROUP BY provider ORDER BY provider`;
    return { retention_days: retention, ...holdings(rows) };
  }

  @Delete()
  @OwnersOnly()
  @HttpCode(200)
  @ApiOperation({
    summary:
      "Purge every entry of the org's cache: the index rows at once, every serving app's memory within seconds",
  })
  @ApiOkResponse({ type: PurgeDto })
  async purge(@Req() req: SessionRequest): Promise<PurgeDto> {
    const session = signedIn(req);
    const { evicted } = await this.bus.request(cacheEvictV1, { orgId: session.orgId, all: true });
    await this.audit.record(session.orgId, session.email, 'cache.purged', `${evicted} entries`);
    return { evicted };
  }
}

function holdings(rows: HeldRow[]): CacheHoldingsDto {
  const vendors = rows.map((row) => ({
    provider: row.provider,
    entries: Number(row.entries),
    bytes: Number(row.bytes ?? 0),
  }));
  return {
    vendors,
    entries: vendors.reduce((sum, v) => sum + v.entries, 0),
    bytes: vendors.reduce((sum, v) => sum + v.bytes, 0),
  };
}
