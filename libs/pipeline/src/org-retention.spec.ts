import type { Sql } from '@router/db';
import { OrgRetention } from './org-retention';

const ORG = '0b6c3a52-7f4e-4a8e-9a51-2d6f0e8b9c11';

/** A database whose reads see the retention as it is when they start, and answer when the test says. */
function heldSql(days: () => number) {
  const reads: Array<() => void> = [];
  const sql: Sql = {
    query: <Row>() => {
      const seen = days();
      return new Promise<Row[]>((resolve) => reads.push(() => resolve([{ days: seen }] as Row[])));
    },
  };
  return { sql, reads };
}

describe('OrgRetention', () => {
  it('shares one read between the requests that find the org unknown or expired', async () => {
    let now = 0;
    const { sql, reads } = heldSql(() => 30);
    const retention = new OrgRetention(sql, 1000, () => now, 0);
    const answers = Promise.all([retention.days(ORG), retention.days(ORG), retention.days(ORG)]);
    expect(reads).toHaveLength(1);
    reads[0]?.();
    await expect(answers).resolves.toEqual([30, 30, 30]);
    expect(retention.days(ORG)).toBe(30); // remembered: answered without a read
    now = 1000;
    const again = [retention.days(ORG), retention.days(ORG)].map((days) => Promise.resolve(days));
    expect(reads).toHaveLength(2);
    reads[1]?.();
    await expect(Promise.all(again)).resolves.toEqual([30, 30]);
  });

  it('does not keep a value read while a change event dropped the org', async () => {
    let days = 30;
    const { sql, reads } = heldSql(() => days);
    const retention = new OrgRetention(sql, 60_000, () => 0, 0);
    const stale = retention.days(ORG);
    retention.forget(ORG);
    days = 0;
    const fresh = retention.days(ORG);
    expect(reads).toHaveLength(2);
    reads[1]?.();
    await expect(fresh).resolves.toBe(0);
    reads[0]?.(); // the read from before the change answers last
    await expect(stale).resolves.toBe(30);
    expect(retention.days(ORG)).toBe(0);
  });

  it('through a PostgreSQL outage answers the retention it holds up to the staleness bound, then unavailable', async () => {
    let now = 0;
    let down = false;
    const sql: Sql = {
      query: <Row>() =>
        down
          ? Promise.reject(Object.assign(new Error('terminating connection'), { code: '57P01' }))
          : Promise.resolve([{ days: 30 }] as Row[]),
    };
    const retention = new OrgRetention(sql, 1000, () => now, 10_000);
    await expect(Promise.resolve(retention.days(ORG))).resolves.toBe(30);
    down = true;
    now = 5000;
    await expect(Promise.resolve(retention.days(ORG))).resolves.toBe(30);
    now = 10_001;
    await expect(Promise.resolve(retention.days(ORG))).rejects.toMatchObject({ code: 'unavailable' });
    down = false;
    await expect(Promise.resolve(retention.days(ORG))).resolves.toBe(30);
  });
});
