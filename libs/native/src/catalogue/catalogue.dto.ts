import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI descriptions of the catalogue's JSON; the values come from the vendor projects. */
export class SpeedRangeDto {
  @ApiProperty() min!: number;
  @ApiProperty() max!: number;
}

export class OptionDto {
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['number', 'string', 'integer', 'boolean', 'object', 'array'] }) type!: string;
  @ApiProperty({ description: 'Default value, or null' }) default!: unknown;
  @ApiProperty() nullable!: boolean;
  @ApiProperty({ type: 'number', required: true, description: 'Minimum, or null' }) min!: number | null;
  @ApiProperty({ type: 'number', required: true, description: 'Maximum, or null' }) max!: number | null;
  @ApiProperty({ type: [String], description: 'Allowed values, or null' }) values!: string[] | null;
  @ApiProperty({ type: [String], description: 'Models that take the option; null means every model' })
  models!: string[] | null;
  @ApiProperty() description!: string;
}

export class ModelDto {
  @ApiProperty() id!: string;
  @ApiProperty({ type: [String] }) languages!: string[];
  @ApiProperty({ type: [String], description: 'Null when the voices come from the live list' })
  voices!: string[] | null;
  @ApiProperty() voices_url!: string;
}

export class ProviderDto {
  @ApiProperty({ example: 'vendor_a' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() docs_url!: string;
  @ApiProperty({ type: [String] }) formats!: string[];
  @ApiProperty({ type: [ModelDto] }) models!: ModelDto[];
  @ApiProperty({ type: [OptionDto] }) options!: OptionDto[];
  @ApiProperty({ type: [Number], description: 'Rates for streaming' }) sample_rates!: number[];
  @ApiProperty({ type: [Number], description: 'Rates for the speech endpoint' })
  speech_sample_rates!: number[];
  @ApiProperty({ type: SpeedRangeDto, description: 'Null when speed is not a top-level setting' })
  speed!: SpeedRangeDto | null;
}

export class CatalogueDto {
  @ApiProperty({ type: [ProviderDto] }) providers!: ProviderDto[];
}
