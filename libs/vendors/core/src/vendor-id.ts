/**
 * The ten vendor tokens, in the spec's order. The spec fixes both the tokens and their order, and many
 * layers (database rows, paths, headers, provider-key routes) need the token list without loading any
 * vendor's catalogue, so the list lives here rather than being derived from the registry.
 */
export const VENDOR_IDS = [
  'vendor_a',
  'vendor_b',
  'vendor_c',
  'vendor_d',
  'vendor_e',
  'vendor_f',
  'vendor_g',
  'vendor_h',
  'vendor_i',
  'vendor_j',
] as const;

export type VendorId = (typeof VENDOR_IDS)[number];
