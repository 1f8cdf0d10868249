/**
 * Whether an org may have new speech made for it: not when disabled (401), nor out of credit (402). The gateway
 * reads it for a key's org (its key directory) and the dashboard for a session's org (a session opening
 * `/v1/stream`), from the same row, alike.
 */
export interface OrgStanding {
  readonly disabled: boolean;
  readonly outOfCredit: boolean;
}

/** The org row's fields its standing is read from, as a Prisma `select`. */
export const ORG_STANDING_FIELDS = Object.freeze({ disabled: true, creditState: true } as const);

/** An org row's standing (`creditState` as the schema's `CreditState`). */
export function orgStandingOf(org: {
  readonly disabled: boolean;
  readonly creditState: string;
}): OrgStanding {
  return { disabled: org.disabled, outOfCredit: org.creditState === 'out_of_credit' };
}
