import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';

const API_KEY_RULE = 'api_key must be a string of 1 to 512 characters';

export class PutProviderKeyBody {
  @ApiProperty({
    description: "The org's own key for the vendor. Write-only: it is never returned.",
    minLength: 1,
    maxLength: 512,
  })
  @IsString({ message: API_KEY_RULE })
  @Length(1, 512, { message: API_KEY_RULE })
  api_key!: string;
}

export class ProviderKeyDto {
  @ApiProperty({ description: 'Vendor token, vendor_a … vendor_j', example: 'vendor_c' })
  provider!: string;

  @ApiProperty({ description: 'Last four characters of the stored key', example: 'x9Qz' })
  last4!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
