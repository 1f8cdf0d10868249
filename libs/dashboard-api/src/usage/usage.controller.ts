import { Controller, Get, Inject, Query, Req, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { SessionGuard, type SessionRequest } from '@router/admin';
import { RouterError } from '@router/contracts';
import type { UsageReport } from '@router/dashboard-types';
import type { PrismaClient } from '@router/db';
import { Anonymous } from '@router/service-kit';
import type { VendorPrices } from '../prices';
import { signedIn } from '../session/session.controller';
import { PRISMA_CLIENT, USAGE_PRICES } from '../tokens';
import { dayRange, usageReport } from './usage';

const MAX_DAYS = 366;

/** What the cache saved: cache-service's usage counters for the org, per day and per vendor. */
@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/usage')
@Anonymous()
@UseGuards(SessionGuard)
export class UsageController {
  constructor(
    @Inject(PRISMA_CLIENT) private readonly prisma: PrismaClient,
    @Inject(USAGE_PRICES) private readonly prices: VendorPrices,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Characters and sentences synthesized at the vendor and served from cache, per UTC day and per vendor, ' +
      "with the estimated vendor cost saved at the operator's prices (VENDOR_PRICES)",
  })
  @ApiQuery({ name: 'days', required: false, description: `1 to ${MAX_DAYS}, default 30` })
  @ApiOkResponse({ description: 'days (every day of the range), vendors, totals, currency' })
  async get(@Req() req: SessionRequest, @Query('days') days?: string): Promise<UsageReport> {
    const count = days === undefined ? 30 : Number(days);
    if (!Number.isInteger(count) || count < 1 || count > MAX_DAYS) {
      throw RouterError.badRequest(`days must be a whole number from 1 to ${MAX_DAYS}`);
    }
    const range = dayRange(Date.now(), count);
    const rows = await this.prisma.usageCounter.findMany({
      where: { orgId: signedIn(req).orgId, day: { gte: new Date(`${range.from}T00:00:00Z`) } },
    });
    return usageReport(
      rows.map((r) => ({
        day: r.day.toISOString().slice(0, 10),
        provider: r.provider,
        synthesizedChars: Number(r.synthesizedChars),
        cachedChars: Number(r.servedFromCacheChars),
        synthesizedSentences: Number(r.synthesizedTakes),
        cachedSentences: Number(r.servedFromCacheTakes),
      })),
      range,
      this.prices,
    );
  }
}
