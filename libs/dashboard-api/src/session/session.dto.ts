import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import type { Session, SessionOrg } from '@router/dashboard-types';

export class SignInBody {
  @ApiProperty({ example: 'ana@example.com' })
  @IsString({ message: 'email must be a string' })
  @Length(1, 254, { message: 'email must be 1 to 254 characters long' })
  email!: string;

  @ApiProperty({
    description: 'The one-time sign-in code the admin CLI printed',
    example: 'ABCDE-FGHJK-MNPQR',
  })
  @IsString({ message: 'code must be a string' })
  @Length(1, 64, { message: 'code must be 1 to 64 characters long' })
  code!: string;
}

export class SessionOrgDto implements SessionOrg {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
}

export class SessionDto implements Session {
  @ApiProperty() email!: string;
  @ApiProperty({
    enum: ['owner', 'member'],
    description: 'An owner also manages members, vendor keys, retention and the cache',
  })
  role!: 'owner' | 'member';
  @ApiProperty({ type: SessionOrgDto }) org!: SessionOrgDto;
  @ApiProperty({ description: 'Send it as x-csrf-token with every request that changes something' })
  csrf_token!: string;
  @ApiProperty({ format: 'date-time' }) expires_at!: string;
}
