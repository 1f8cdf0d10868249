import { issueApiKey } from '@router/auth';
import { RouterError } from '@router/contracts';
import type { Org, PrismaClient } from '@router/db';
import type { ChangeNotifier } from '@router/service-kit';
import type { ApiKeyView, CreateOrgBody, IssueKeyBody, OrgView, UpdateOrgBody } from './admin.dto';
import { AuditLog, describeKey, OPERATOR } from './audit';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Orgs and their API keys, as the admin CLI and the dashboard manage them. Every change is
 * announced so gateways and workers stop trusting their memory of it at once.
 */
export class AdminService {
  private readonly audit: AuditLog;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly changes: ChangeNotifier,
  ) {
    this.audit = new AuditLog(prisma);
  }

  async listOrgs(): Promise<OrgView[]> {
    const orgs = await this.prisma.org.findMany({ orderBy: { createdAt: 'asc' } });
    const counts = await this.activeKeyCounts();
    return orgs.map((org) => toOrgView(org, counts.get(org.id) ?? 0));
  }

  async getOrg(orgId: string): Promise<OrgView> {
    const org = await this.findOrg(orgId);
    return toOrgView(org, (await this.activeKeyCounts(org.id)).get(org.id) ?? 0);
  }

  async createOrg(body: CreateOrgBody): Promise<OrgView> {
    const org = await this.prisma.org.create({
      data: {
        name: body.name,
        ...(body.retention_days === undefined ? {} : { retentionDays: body.retention_days }),
      },
    });
    return toOrgView(org, 0);
  }

  /** Changes an org; a change of its retention goes on its audit list, put down to `actor`. */
  async updateOrg(orgId: string, body: UpdateOrgBody, actor = OPERATOR): Promise<OrgView> {
    const before = await this.findOrg(orgId);
    if (Object.keys(body).length === 0) {
      throw RouterError.badRequest(
        'Give at least one of retention_days, disabled, credit, name, max_concurrent_syntheses, max_open_sockets, max_requests_per_second',
      );
    }
    const org = await this.prisma.org.update({
      where: { id: orgId },
      data: {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.retention_days === undefined ? {} : { retentionDays: body.retention_days }),
        ...(body.disabled === undefined ? {} : { disabled: body.disabled }),
        ...(body.credit === undefined
          ? {}
          : { creditState: body.credit === 'in' ? 'in_credit' : 'out_of_credit' }),
        ...(body.max_concurrent_syntheses === undefined
          ? {}
          : { limitConcurrentSyntheses: body.max_concurrent_syntheses }),
        ...(body.max_open_sockets === undefined ? {} : { limitOpenSockets: body.max_open_sockets }),
        ...(body.max_requests_per_second === undefined
          ? {}
          : { limitRequestsPerSecond: body.max_requests_per_second }),
      },
    });
    this.changes.orgChanged(orgId);
    if (body.retention_days !== undefined && body.retention_days !== before.retentionDays) {
      await this.audit.record(
        orgId,
        actor,
        'retention.changed',
        `${before.retentionDays} → ${org.retentionDays} days`,
      );
    }
    return this.getOrg(org.id);
  }

  /**
   * Issues a key, with a name and an expiry when given (an expiry must be ahead); the whole key is in this
   * answer only, and only its hash is stored.
   */
  async issueKey(
    orgId: string,
    body: IssueKeyBody = {},
    actor = OPERATOR,
  ): Promise<ApiKeyView & { key: string }> {
    await this.findOrg(orgId);
    const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at);
    if (expiresAt !== null && !(expiresAt.getTime() > Date.now())) {
      throw RouterError.badRequest(
        'expires_at must be ahead of now (leave it out for a key that never expires)',
      );
    }
    const issued = issueApiKey();
    const row = await this.prisma.apiKey.create({
      data: {
        orgId,
        prefix: issued.prefix,
        keyHash: issued.keyHash,
        name: body.name?.trim() ?? '',
        expiresAt,
      },
    });
    await this.audit.record(orgId, actor, 'api_key.issued', describeKey(row));
    return { ...toKeyView(row), key: issued.key };
  }

  async listKeys(orgId: string): Promise<ApiKeyView[]> {
    await this.findOrg(orgId);
    const rows = await this.prisma.apiKey.findMany({ where: { orgId }, orderBy: { createdAt: 'asc' } });
    return rows.map(toKeyView);
  }

  /** Revokes a key; with `orgId` (a signed-in member's), a key of another org is as unknown as a missing one. */
  async revokeKey(keyId: string, orgId?: string, actor = OPERATOR): Promise<ApiKeyView> {
    const row = UUID.test(keyId) ? await this.prisma.apiKey.findUnique({ where: { id: keyId } }) : null;
    if (!row || (orgId !== undefined && row.orgId !== orgId)) {
      throw new RouterError('not_found', `No API key with id ${keyId}`);
    }
    const revoked = row.revokedAt
      ? row
      : await this.prisma.apiKey.update({ where: { id: keyId }, data: { revokedAt: new Date() } });
    this.changes.apiKeyChanged(row.orgId, row.keyHash);
    if (!row.revokedAt) await this.audit.record(row.orgId, actor, 'api_key.revoked', describeKey(row));
    return toKeyView(revoked);
  }

  private async findOrg(orgId: string): Promise<Org> {
    const org = UUID.test(orgId) ? await this.prisma.org.findUnique({ where: { id: orgId } }) : null;
    if (!org) throw new RouterError('not_found', `No org with id ${orgId}`);
    return org;
  }

  private async activeKeyCounts(orgId?: string): Promise<Map<string, number>> {
    const groups = await this.prisma.apiKey.groupBy({
      by: ['orgId'],
      where: { revokedAt: null, ...(orgId === undefined ? {} : { orgId }) },
      _count: { _all: true },
    });
    return new Map(groups.map((g) => [g.orgId, g._count._all]));
  }
}

function toOrgView(org: Org, activeKeys: number): OrgView {
  return {
    id: org.id,
    name: org.name,
    retention_days: org.retentionDays,
    disabled: org.disabled,
    credit: org.creditState === 'in_credit' ? 'in' : 'out',
    created_at: org.createdAt.toISOString(),
    active_keys: activeKeys,
    max_concurrent_syntheses: org.limitConcurrentSyntheses,
    max_open_sockets: org.limitOpenSockets,
    max_requests_per_second: org.limitRequestsPerSecond,
  };
}

function toKeyView(row: {
  id: string;
  orgId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}): ApiKeyView {
  return {
    id: row.id,
    org_id: row.orgId,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}
