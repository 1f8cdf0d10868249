import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SpeechBodyDoc } from '../speech/speech-body.doc';

/** The eviction body as OpenAPI shows it; `CacheEviction.parse` validates it. */
export class EvictionBodyDoc {
  @ApiPropertyOptional({
    type: SpeechBodyDoc,
    description:
      'A speech body, validated as POST /v1/audio/speech validates it: the entries of each of its sentences with ' +
      'exactly those settings (the entries that request would play).',
  })
  request?: SpeechBodyDoc;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 20000,
    description:
      'A sentence: every entry of it, whatever vendor, model, voice, format or surface it was said with (whitespace ' +
      'runs collapsed; case and punctuation count). A text of several sentences evicts each of them.',
  })
  sentence?: string;

  @ApiPropertyOptional({ enum: [true], description: 'Every entry of the org.' })
  all?: boolean;
}

export class EvictionDto {
  @ApiProperty({ description: 'How many cache entries were removed (0 when none was cached).', minimum: 0 })
  evicted!: number;
}
