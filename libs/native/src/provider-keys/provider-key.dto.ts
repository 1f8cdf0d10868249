import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import type { KeyCheck } from '@router/dashboard-types';
import { VENDOR_IDS } from '@router/vendors-core';

const API_KEY_RULE = 'api_key must be a string of 1 to 512 characters';
/**
 * Every vendor call sends the key in an HTTP header, a query or a WebSocket URL: a character none of them
 * can carry as it is (a control character, a space a header would trim, anything past ASCII) makes every
 * synthesis fail, so such a key is refused here rather than stored.
 */
const API_KEY_CHARACTERS = /^[!-~]*$/;
const API_KEY_CHARACTERS_RULE =
  'api_key must contain only printable ASCII characters other than space (! to ~): a vendor key travels in an HTTP header';

export class PutProviderKeyBody {
  @ApiProperty({
    description: "The org's own key for the vendor. Write-only: it is never returned.",
    minLength: 1,
    maxLength: 512,
    pattern: API_KEY_CHARACTERS.source,
  })
  // Bottom up, as class-validator checks them: a key that is not a string is told so, not about its characters.
  @Matches(API_KEY_CHARACTERS, { message: API_KEY_CHARACTERS_RULE })
  @Length(1, 512, { message: API_KEY_RULE })
  @IsString({ message: API_KEY_RULE })
  api_key!: string;
}

export class ProviderKeyDto {
  @ApiProperty({ description: 'Vendor token', enum: VENDOR_IDS, example: 'vendor_c' })
  provider!: string;

  @ApiProperty({
    description:
      "The stored key's last four characters; of a key shorter than eight characters, the last half (rounded down)",
    example: 'x9Qz',
  })
  last4!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export class KeyCheckDto implements KeyCheck {
  @ApiProperty({ description: 'Whether the vendor accepted the stored key' })
  ok!: boolean;

  @ApiProperty({
    enum: ['voice_list', 'synthesis', 'none'],
    description:
      "How it was tried: the vendor's voice list (nothing billed), one word spoken uncached through a worker " +
      '(a few characters billed), or not at all (a vendor with neither)',
  })
  check!: 'voice_list' | 'synthesis' | 'none';

  @ApiProperty({ description: 'The outcome in words, never the vendor’s own text' })
  outcome!: string;

  @ApiProperty({ required: false, description: "The router's error code when it failed" })
  code?: string;

  @ApiProperty({ required: false, description: "The vendor's HTTP status when it refused" })
  provider_status?: number;
}
