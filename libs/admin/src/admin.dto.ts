import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';

const RETENTION_RULE = 'retention_days must be 0 (off) or 1 to 3650';

/** Retention is 0 (off) or 1..3650 days; anything else is refused naming the field. */
export function IsRetention(): PropertyDecorator {
  return (target, key) => {
    IsInt({ message: RETENTION_RULE })(target, key);
    Min(0, { message: RETENTION_RULE })(target, key);
    Max(3650, { message: RETENTION_RULE })(target, key);
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
}

export interface OrgView {
  id: string;
  name: string;
  retention_days: number;
  disabled: boolean;
  credit: 'in' | 'out';
  created_at: string;
  active_keys: number;
}

export interface ApiKeyView {
  id: string;
  org_id: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
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
  created_at: string;
}

/** A one-time sign-in code: shown once to the operator, who hands it to the member. */
export interface SignInCodeView {
  member: MemberView;
  code: string;
  expires_at: string;
}
