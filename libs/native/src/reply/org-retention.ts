import type { PrismaClient } from '@router/db';

/**
 * Each org's retention as the speech surfaces need it (0 means nothing is read from or written to the
 * cache), remembered briefly; an org change event drops it.
 */
export class OrgRetention {
  private readonly known = new Map<string, { days: number; at: number }>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  async days(orgId: string): Promise<number> {
    const hit = this.known.get(orgId);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.days;
    const org = await this.prisma.org.findUnique({ where: { id: orgId }, select: { retentionDays: true } });
    const days = org?.retentionDays ?? 0;
    this.known.set(orgId, { days, at: this.now() });
    return days;
  }

  forget(orgId: string): void {
    this.known.delete(orgId);
  }
}
