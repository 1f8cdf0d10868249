import { heldThroughOutage } from '@router/contracts';
import type { Sql } from '@router/db';

/**
 * Each org's retention as the speech surfaces need it (0 means nothing is read from or written to the
 * cache), remembered briefly; an org change event drops it. Requests that find it expired share one read
 * (each read by itself would queue behind the others under load), in plain SQL as it is on a request's path.
 */
export class OrgRetention {
  private readonly known = new Map<string, { days: number; at: number }>();
  private readonly loading = new Map<string, Promise<number>>();

  constructor(
    private readonly sql: Sql,
    private readonly ttlMs: number,
    private readonly now: () => number,
    /** While PostgreSQL cannot be read, a retention read no longer ago than this still answers. */
    private readonly outageStaleMs: number,
  ) {}

  days(orgId: string): number | Promise<number> {
    const hit = this.known.get(orgId);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.days;
    const held = hit && { value: hit.days, at: hit.at };
    return (this.loading.get(orgId) ?? this.load(orgId)).catch((error: unknown) =>
      heldThroughOutage(error, held, this.now(), this.outageStaleMs),
    );
  }

  forget(orgId: string): void {
    this.known.delete(orgId);
    this.loading.delete(orgId);
  }

  private load(orgId: string): Promise<number> {
    const pending = this.sql
      .query<{ days: number }>('SELECT retention_days AS days FROM orgs WHERE id = $1::uuid', [orgId])
      .then(
        ([org]) => {
          const days = org?.days ?? 0;
          // A read that raced forget() must not bring back what the change event dropped.
          if (this.loading.get(orgId) === pending) {
            this.loading.delete(orgId);
            this.known.set(orgId, { days, at: this.now() });
          }
          return days;
        },
        (error: unknown) => {
          if (this.loading.get(orgId) === pending) this.loading.delete(orgId);
          throw error;
        },
      );
    this.loading.set(orgId, pending);
    return pending;
  }
}
