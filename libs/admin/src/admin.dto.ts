import {
  IsBoolean,
  IsIn,
  IsISO8601,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import type { ApiKey } from '@router/dashboard-types';

const RETENTION_RULE = 'retention_days must be 0 (off) or 1 to 3650';

/** Retention is 0 (off) or 1..3650 days; anything else is refused naming the field. */
export function IsRetention(): PropertyDecorator {
  return (target, key) => {
    IsInt({ message: RETENTION_RULE })(target, key);
    Min(0, { message: RETENTION_RULE })(target, key);
    Max(3650, { message: RETENTION_RULE })(target, key);
  };
}

/** The largest value an org's own limit may take. */
export const MAX_ORG_LIMIT = 1_000_000;

/**
 * An org's own limit (docs/operations.md, "Per-org limits"): 0 (none) to 1,000,000, or null to go back to the
 * gateway's default; anything else is refused naming the field.
 */
function IsOrgLimit(field: string): PropertyDecorator {
  const rule = `${field} must be an integer from 0 (no limit) to ${MAX_ORG_LIMIT}, or null for the default`;
  return (target, key) => {
    IsOptional()(target, key); // undefined: unchanged; null: the default
    IsInt({ message: rule })(target, key);
    Min(0, { message: rule })(target, key);
    Max(MAX_ORG_LIMIT, { message: rule })(target, key);
  };
}

export class CreateOrgBody {
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1 to 200 characters long' })
  name!: string;

  @IsOptional()
  @IsRetention()
  retention_days?: number;
}

export class UpdateOrgBody {
  @IsOptional()
  @IsRetention()
  retention_days?: number;

  @IsOptional()
  @IsBoolean({ message: 'disabled must be true or false' })
  disabled?: boolean;

  @IsOptional()
  @IsIn(['in', 'out'], { message: 'credit must be "in" or "out"' })
  credit?: 'in' | 'out';

  @ValidateIf((o: UpdateOrgBody) => o.name !== undefined)
  @IsString({ message: 'name must be a string' })
  @Length(1, 200, { message: 'name must be 1 to 200 characters long' })
  name?: string;

  @IsOrgLimit('max_concurrent_syntheses')
  max_concurrent_syntheses?: number | null;

  @IsOrgLimit('max_open_sockets')
  max_open_sockets?: number | null;

  @IsOrgLimit('max_requests_per_second')
  max_requests_per_second?: number | null;
}

export interface OrgView {
  id: string;
  name: string;
  retention_days: number;
  disabled: boolean;
  credit: 'in' | 'out';
  created_at: string;
  active_keys: number;
  /** The org's own limits, each per gateway replica; null: the gateway's default (`ORG_LIMIT_*`), 0: none. */
  max_concurrent_syntheses: number | null;
  max_open_sockets: number | null;
  max_requests_per_second: number | null;
}

/** A new key: its name, and when it stops working (an instant ahead; left out, never). */
export class IssueKeyBody {
  @IsOptional()
  @IsString({ message: 'name must be a string' })
  @Length(0, 100, { message: 'name must be at most 100 characters long' })
  name?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'expires_at must be a date and time like 2027-01-31T23:59:59Z' })
  expires_at?: string;
}

/** A key as the admin API answers it: the dashboard's view of a key (`@router/dashboard-types`) and its org. */
export interface ApiKeyView extends ApiKey {
  org_id: string;
}

/** An address with one `@` and no spaces: enough to tell members apart (no mail is sent to it). */
function IsEmail(): PropertyDecorator {
  return (target, key) => {
    IsString({ message: 'email must be a string' })(target, key);
    Length(3, 254, { message: 'email must be 3 to 254 characters long' })(target, key);
    Matches(/^[^\s@]+@[^\s@]+$/, { message: 'email must be an address like name@example.com' })(target, key);
  };
}

export class MemberEmailBody {
  @IsEmail()
  email!: string;
}

export interface MemberView {
  id: string;
  org_id: string;
  email: string;
  role: 'owner' | 'member';
  created_at: string;
}

/** A one-time sign-in code: shown once to the operator, who hands it to the member. */
export interface SignInCodeView {
  member: MemberView;
  code: string;
  expires_at: string;
}
