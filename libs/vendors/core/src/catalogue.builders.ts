import type { JsonValue, ModelCatalogue, OptionSpec, OptionType } from './catalogue.types';
import type { VendorId } from './vendor-id';

/**
 * An option as a vendor folder declares it: what it has, the rest of the public Option written once here.
 * `default` left out is null (the vendor's own default applies), and then the option is nullable; `nullable`
 * otherwise says whether a client may send null. Bounds, value lists and model lists left out are null (none;
 * every model).
 */
export interface OptionDeclaration {
  readonly name: string;
  readonly type: OptionType;
  readonly description: string;
  readonly default?: JsonValue;
  readonly nullable?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly values?: readonly string[];
  readonly models?: readonly string[];
}

/** The public Option of a declared one, every field the spec's Option has. */
export function catalogueOption(declared: OptionDeclaration): OptionSpec {
  const fallback = declared.default ?? null;
  return {
    name: declared.name,
    type: declared.type,
    default: fallback,
    nullable: declared.nullable ?? fallback === null,
    min: declared.min ?? null,
    max: declared.max ?? null,
    values: declared.values ? [...declared.values] : null,
    models: declared.models ? [...declared.models] : null,
    description: declared.description,
  };
}

/** A vendor's documentation site; its catalogue links its text-to-speech page and its voices page. */
function docsOf(vendor: VendorId): string {
  return `https://docs.${vendor.replace('_', '-')}.invalid`;
}

/** The head of a vendor's catalogue entry: its token, its display name (`Vendor C`) and its docs page. */
export function catalogueHead(vendor: VendorId): { id: VendorId; name: string; docs_url: string } {
  const letter = vendor.slice(vendor.indexOf('_') + 1).toUpperCase();
  return { id: vendor, name: `Vendor ${letter}`, docs_url: `${docsOf(vendor)}/text-to-speech` };
}

/**
 * A model of a vendor's catalogue: its languages, its voices where the router's catalogue holds them (null:
 * read live from the vendor) and the vendor's voices page.
 */
export function catalogueModel(
  vendor: VendorId,
  id: string,
  languages: readonly string[],
  voices: readonly string[] | null = null,
): ModelCatalogue {
  return {
    id,
    languages: [...languages],
    voices: voices && [...voices],
    voices_url: `${docsOf(vendor)}/voices`,
  };
}

/**
 * The input limit of a vendor that states none: 2000 characters, the smallest any vendor states (vendor_e's),
 * is safe whatever its own limit is.
 */
export const UNSTATED_MAX_INPUT_CHARS = 2000;
