import { Controller, Get, Inject, Req, UseGuards } from '@nestjs/common';
import { ApiCookieAuth, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { SessionGuard, type SessionRequest } from '@router/admin';
import type { PrismaClient } from '@router/db';
import { Anonymous } from '@router/service-kit';
import { VENDOR_ENTRIES, VENDOR_IDS } from '@router/vendors';
import { signedIn } from '../session/session.controller';
import { PRISMA_CLIENT } from '../tokens';
import type { KeyError, StoredKey, Vendor } from '@router/dashboard-types';

export class StoredKeyDto implements StoredKey {
  @ApiProperty({ description: "The stored key's last characters (never more)" }) last4!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Its last test, if any' })
  checked_at!: string | null;
}

export class KeyErrorDto implements KeyError {
  @ApiProperty({ description: "The router's error code" }) code!: string;
  @ApiProperty({ description: "What failed, in the router's words" }) message!: string;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

export class VendorDto implements Vendor {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String], description: "The router's ways in that the vendor's stored key enables" })
  surfaces!: string[];
  @ApiProperty({ type: StoredKeyDto, nullable: true, description: "The org's stored key, or null" })
  key!: StoredKeyDto | null;
  @ApiProperty({
    type: KeyErrorDto,
    nullable: true,
    description: "The key's last error (from its last test); null once a test passes or a key is stored",
  })
  last_error!: KeyErrorDto | null;
}

/** Every vendor and what storing its key enables, from the registry (a vendor with a mirror adds its drop-in). */
export const VENDOR_SURFACES: ReadonlyArray<Pick<VendorDto, 'id' | 'name' | 'surfaces'>> = VENDOR_IDS.map(
  (id) => {
    const entry = VENDOR_ENTRIES[id];
    return {
      id,
      name: entry.definition.catalogue.name,
      surfaces: [
        'POST /v1/audio/speech',
        '/v1/stream (WebSocket)',
        ...(entry.mirror ? [`the ${id} drop-in at /${id} (its own client, base URL changed)`] : []),
      ],
    };
  },
);

/** The vendor-key table: a row per vendor with the org's key (last four only), what it enables, its last error. */
@ApiTags('dashboard')
@ApiCookieAuth('session')
@Controller('api/vendors')
@Anonymous()
@UseGuards(SessionGuard)
export class VendorsController {
  constructor(@Inject(PRISMA_CLIENT) private readonly prisma: PrismaClient) {}

  @Get()
  @ApiOperation({
    summary:
      "Every vendor, the surfaces its stored key enables, and the org's key: last four, when stored, last test " +
      'and last error (store keys with /v1/provider-keys, test them with POST /v1/provider-keys/{provider}/test)',
  })
  @ApiOkResponse({ type: [VendorDto] })
  async list(@Req() req: SessionRequest): Promise<VendorDto[]> {
    const rows = await this.prisma.providerKey.findMany({
      where: { orgId: signedIn(req).orgId },
      // Never the sealed key: only what the table shows.
      select: {
        provider: true,
        last4: true,
        updatedAt: true,
        checkedAt: true,
        lastErrorCode: true,
        lastErrorMessage: true,
        lastErrorAt: true,
      },
    });
    const byVendor = new Map(rows.map((row) => [row.provider, row]));
    return VENDOR_SURFACES.map((vendor) => {
      const row = byVendor.get(vendor.id);
      return {
        ...vendor,
        key: row
          ? {
              last4: row.last4,
              updated_at: row.updatedAt.toISOString(),
              checked_at: row.checkedAt?.toISOString() ?? null,
            }
          : null,
        last_error:
          row?.lastErrorCode && row.lastErrorAt
            ? {
                code: row.lastErrorCode,
                message: row.lastErrorMessage ?? '',
                at: row.lastErrorAt.toISOString(),
              }
            : null,
      };
    });
  }
}
