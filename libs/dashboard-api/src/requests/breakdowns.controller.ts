import { Controller, Get, Inject, Query, Req, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { SessionGuard, type SessionRequest } from '@router/admin';
import { RouterError } from '@router/contracts';
import type { PrismaClient } from '@router/db';
import type { Breakdowns } from '@router/dashboard-types';
import { Anonymous } from '@router/service-kit';
import type { VendorPrices } from '../prices';
import { signedIn } from '../session/session.controller';
import { PRISMA_CLIENT, USAGE_PRICES } from '../tokens';
import { aggregate } from './breakdowns';
import { keyNamesOf } from './key-names';
import { single } from './request-filters';

const DAY_MS = 86_400_000;
export const BREAKDOWN_MAX_DAYS = 366;

/** The request log summed: per day and vendor, per key, per model and per voice (SQL aggregation). */
@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/breakdowns')
@Anonymous()
@UseGuards(SessionGuard)
export class BreakdownsController {
  constructor(
    @Inject(PRISMA_CLIENT) private readonly prisma: PrismaClient,
    @Inject(USAGE_PRICES) private readonly prices: VendorPrices,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Characters synthesized and served from cache, the share of sentences from cache, the estimated saving and ' +
      'first-audio p50/p95, per UTC day and vendor, per API key, per model and per voice, from the request log',
  })
  @ApiQuery({
    name: 'from',
    required: false,
    description: 'A UTC day, included; default 29 days before `to`',
  })
  @ApiQuery({
    name: 'to',
    required: false,
    description: `A UTC day, included; default today; at most ${BREAKDOWN_MAX_DAYS} days`,
  })
  @ApiOkResponse({ description: 'from, to, currency, days, vendors, by_day, keys, models, voices' })
  async get(
    @Req() req: SessionRequest,
    @Query() query: { from?: unknown; to?: unknown },
  ): Promise<Breakdowns> {
    const { orgId } = signedIn(req);
    const range = dayRange(single('from', query.from), single('to', query.to), Date.now());
    const bounds = {
      from: new Date(`${range.from}T00:00:00Z`),
      to: new Date(Date.parse(`${range.to}T00:00:00Z`) + DAY_MS),
    };
    const [vendors, byDay, keyRows, models, voices, keys] = await Promise.all([
      aggregate<{ vendor: string }>(this.prisma, 'vendor', orgId, bounds, this.prices),
      aggregate<{ day: string; vendor: string }>(this.prisma, 'dayVendor', orgId, bounds, this.prices),
      aggregate<{ key_hash: string | null }>(this.prisma, 'key', orgId, bounds, this.prices),
      aggregate<{ vendor: string; model: string }>(this.prisma, 'model', orgId, bounds, this.prices),
      aggregate<{ vendor: string; voice: string }>(this.prisma, 'voice', orgId, bounds, this.prices),
      keyNamesOf(this.prisma, orgId),
    ]);
    return {
      ...range,
      currency: this.prices.currency,
      vendors,
      by_day: byDay,
      keys: keyRows.map(({ key_hash, ...figures }) => ({
        key: key_hash ? keys.byHash(key_hash) : null,
        ...figures,
      })),
      models,
      voices,
    };
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The days `from`..`to` (UTC, both included): by default the 30 days up to today. */
export function dayRange(
  from: string | undefined,
  to: string | undefined,
  now: number,
): { from: string; to: string; days: string[] } {
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (value !== undefined && (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))) {
      throw RouterError.badRequest(`${name} must be a day like 2026-11-28`);
    }
  }
  const end = to === undefined ? Math.floor(now / DAY_MS) * DAY_MS : Date.parse(`${to}T00:00:00Z`);
  const start = from === undefined ? end - 29 * DAY_MS : Date.parse(`${from}T00:00:00Z`);
  if (start > end) throw RouterError.badRequest('from must not come after to');
  const count = Math.round((end - start) / DAY_MS) + 1;
  if (count > BREAKDOWN_MAX_DAYS) {
    throw RouterError.badRequest(`from to to must span at most ${BREAKDOWN_MAX_DAYS} days`);
  }
  const days = Array.from({ length: count }, (_, i) =>
    new Date(start + i * DAY_MS).toISOString().slice(0, 10),
  );
  return { from: days[0] ?? '', to: days.at(-1) ?? '', days };
}
