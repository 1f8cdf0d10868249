import type { PrismaClient } from '@router/db';

/** What can be changed in an org, as its audit list names it. */
export type AuditAction =
  | 'api_key.issued'
  | 'api_key.revoked'
  | 'vendor_key.stored'
  | 'vendor_key.deleted'
  | 'retention.changed'
  | 'member.invited'
  | 'member.code_issued'
  | 'member.role_changed'
  | 'member.removed'
  | 'cache.purged';

/** Who a change made through the admin CLI is put down to. */
export const OPERATOR = 'the operator (admin CLI)';
/** Who a change made with an API key (the spec's `/v1/provider-keys`) is put down to. */
export const AN_API_KEY = 'an API key';

export interface AuditEventView {
  id: string;
  actor: string;
  action: AuditAction;
  target: string;
  created_at: string;
}

/** The most events one page of the audit list holds. */
export const AUDIT_PAGE_MAX = 200;

/**
 * Who changed what in an org, and when. Each change records itself once made; what is recorded names things
 * as people tell them apart (a key's name and prefix, a vendor's token, a member's address), never a secret.
 */
export class AuditLog {
  constructor(private readonly prisma: PrismaClient) {}

  async record(orgId: string, actor: string, action: AuditAction, target = ''): Promise<void> {
    await this.prisma.auditEvent.create({ data: { orgId, actor, action, target } });
  }

  /** The org's events, newest first, `limit` of them (at most AUDIT_PAGE_MAX), older than `before` if given. */
  async list(orgId: string, options: { limit: number; before?: Date }): Promise<AuditEventView[]> {
    const rows = await this.prisma.auditEvent.findMany({
      where: { orgId, ...(options.before ? { createdAt: { lt: options.before } } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: Math.min(Math.max(1, options.limit), AUDIT_PAGE_MAX),
    });
    return rows.map((row) => ({
      id: row.id,
      actor: row.actor,
      action: row.action as AuditAction,
      target: row.target,
      created_at: row.createdAt.toISOString(),
    }));
  }
}

/** A key as the audit list names it: its name (if any) and its prefix. */
export function describeKey(key: { name: string; prefix: string }): string {
  return key.name ? `${key.name} (${key.prefix}…)` : `${key.prefix}…`;
}
