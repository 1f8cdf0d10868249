import { ApiProperty } from '@nestjs/swagger';
import { VOICE_CATEGORIES } from '@router/vendors-core';

/** OpenAPI description of the spec's Voice. */
export class VoiceDto {
  @ApiProperty({
    description: 'What `voice` takes on every surface. For vendor_e, the vendor name without the model id.',
  })
  id!: string;

  @ApiProperty({ description: "The vendor's display name" })
  name!: string;

  @ApiProperty({ example: 'vendor_c' })
  provider!: string;

  @ApiProperty({ type: [String], description: 'Router model ids the voice works with' })
  models!: string[];

  @ApiProperty({
    type: [String],
    description:
      "The vendor's language codes: every language of its model where it speaks them all, a vendor_c voice's own " +
      'language then its verified ones, an a_model_2 persona its recording language; empty when the vendor does not say',
  })
  languages!: string[];

  @ApiProperty({ enum: ['male', 'female', 'neutral'], nullable: true, type: String })
  gender!: string | null;

  @ApiProperty({ nullable: true, type: String, description: "The vendor's own words" })
  accent!: string | null;

  @ApiProperty({ nullable: true, type: String, description: "The vendor's own words" })
  age!: string | null;

  @ApiProperty({ nullable: true, type: String })
  description!: string | null;

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'A vendor-hosted sample that needs no key (vendor_c, vendor_e)',
  })
  preview_url!: string | null;

  @ApiProperty({ enum: VOICE_CATEGORIES })
  category!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "The vendor's own voice object as received; null for catalogue voices (vendor_a, vendor_d)",
  })
  provider_data!: Record<string, unknown> | null;
}

export class VoicesResponseDto {
  @ApiProperty({ type: [VoiceDto] })
  voices!: VoiceDto[];
}
