import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateIf } from 'class-validator';

const RETENTION_RULE = 'retention_days must be 0 (off) or 1 to 3650';

/** Retention is 0 (off) or 1..3650 days; anything else is refused naming the field. */
function IsRetention(): PropertyDecorator {
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
