import { Body, Controller, Delete, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { IdentifiedRequest } from '@router/service-kit';
import { orgOf } from '../provider-keys/provider-keys.controller';
import { CACHE_EVICTION } from '../tokens';
import { CacheEviction } from './cache-eviction.service';
import { EvictionBodyDoc, EvictionDto } from './cache-eviction.doc';

/**
 * The org's own cache entries: evicted by request, by sentence or all at once (docs/cache-eviction.md). An
 * eviction is idempotent: evicting what is not cached answers `evicted: 0`.
 */
@ApiTags('cache')
@Controller('v1/cache')
export class CacheController {
  constructor(@Inject(CACHE_EVICTION) private readonly eviction: CacheEviction) {}

  @Post('evict')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Evict cache entries: those a speech request would play, every entry of a sentence, or all of the org’s',
    description:
      'The index rows go at once; every serving app drops them from memory within seconds. The next request for an ' +
      'evicted sentence is synthesized by the vendor. Exactly one of `request`, `sentence`, `all`.',
  })
  @ApiBody({ type: EvictionBodyDoc })
  @ApiOkResponse({ type: EvictionDto })
  async evict(@Req() req: IdentifiedRequest, @Body() body: unknown): Promise<EvictionDto> {
    const orgId = orgOf(req);
    return { evicted: await this.eviction.evict(orgId, CacheEviction.parse(body)) };
  }

  @Delete()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Evict every cache entry of the org (as `POST /v1/cache/evict` with `all: true`)',
  })
  @ApiOkResponse({ type: EvictionDto })
  async purge(@Req() req: IdentifiedRequest): Promise<EvictionDto> {
    return { evicted: await this.eviction.evict(orgOf(req), { all: true }) };
  }
}
