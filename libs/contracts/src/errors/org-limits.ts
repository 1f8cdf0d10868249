/** An org's limits at the gateway (docs/operations.md, "Per-org limits"), by the names the router uses. */
export type OrgLimitName = 'concurrentSyntheses' | 'openSockets' | 'requestsPerSecond';

/** The words of a `rate_limited` refusal past `limit` (of `value`), the same on every surface. */
export function limitMessage(limit: OrgLimitName, value: number): string {
  switch (limit) {
    case 'concurrentSyntheses':
      return `The org has ${value} requests under way, its limit at once; retry after the seconds in Retry-After.`;
    case 'openSockets':
      return `The org has ${value} WebSockets open, its limit at once; close one or retry after the seconds in Retry-After.`;
    case 'requestsPerSecond':
      return `The org is past its limit of ${value} requests per second; retry after the seconds in Retry-After.`;
  }
}
