import type {
  CatalogueResponse,
  Model,
  ModelCatalogue,
  Option,
  OptionSpec,
  Provider,
} from './catalogue.types';
import type { VendorDefinition } from './vendor-definition.types';

/**
 * The JSON views of `GET /v1/models`. Each is built field by field in the spec's order, so the public
 * objects carry exactly the spec's field set (and fresh arrays) whatever else a definition holds.
 */
export function toPublicOption(option: OptionSpec): Option {
  return {
    name: option.name,
    type: option.type,
    default: option.default,
    nullable: option.nullable,
    min: option.min,
    max: option.max,
    values: option.values ? [...option.values] : null,
    models: option.models ? [...option.models] : null,
    description: option.description,
  };
}

export function toPublicModel(model: ModelCatalogue): Model {
  return {
    id: model.id,
    languages: [...model.languages],
    voices: model.voices ? [...model.voices] : null,
    voices_url: model.voices_url,
  };
}

export function toPublicProvider(def: VendorDefinition): Provider {
  const cat = def.catalogue;
  return {
    id: cat.id,
    name: cat.name,
    docs_url: cat.docs_url,
    formats: [...cat.formats],
    models: cat.models.map(toPublicModel),
    options: cat.options.map(toPublicOption),
    sample_rates: [...cat.sample_rates],
    speech_sample_rates: [...cat.speech_sample_rates],
    speed: cat.speed
      ? {
          min: cat.speed.min,
          max: cat.speed.max,
          ...(cat.speed.default === undefined ? {} : { default: cat.speed.default }),
        }
      : null,
  };
}

export function toCatalogueResponse(defs: readonly VendorDefinition[]): CatalogueResponse {
  return { providers: defs.map(toPublicProvider) };
}
