import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * The speech body as OpenAPI shows it. Validation is `parseSpeechBody`, driven by the vendor catalogue;
 * this class only documents. Vendor options go top-level under the catalogue's option names (the OpenAPI
 * document marks the schema open for them).
 */
export class SpeechBodyDoc {
  @ApiProperty({
    description: '`<provider>/<model_id>`, e.g. `vendor_a/a_model_2`',
    example: 'vendor_c/c_model_1',
  })
  model!: string;

  @ApiProperty({ description: 'Text to speak', minLength: 1, maxLength: 20000 })
  input!: string;

  @ApiProperty({ description: "The vendor's voice id; it must belong to the model", minLength: 1 })
  voice!: string;

  @ApiPropertyOptional({
    description: "Vendor's language code; required for vendor_a, vendor_b and vendor_g, see GET /v1/models",
    minLength: 1,
  })
  language?: string;

  @ApiPropertyOptional({
    enum: ['pcm', 'wav', 'mp3', 'aac', 'mulaw', 'alaw', 'flac', 'opus'],
    default: 'mp3',
    description: '`flac` and `opus` are always refused; a format the vendor cannot produce is refused',
  })
  response_format?: string;

  @ApiPropertyOptional({
    default: 1.0,
    description: "Within the vendor's speed range; refused for vendor_c (use voice_settings.speed)",
  })
  speed?: number;

  @ApiPropertyOptional({ enum: [8000, 16000, 22050, 24000, 32000, 44100, 48000], default: 24000 })
  sample_rate?: number;

  @ApiPropertyOptional({ enum: ['audio'], default: 'audio', description: '`sse` is refused' })
  stream_format?: string;
}
