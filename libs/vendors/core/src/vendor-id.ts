import { VENDOR_TOKENS } from '@router/config';

/**
 * The vendor tokens, `vendor_a` …, in the registry's order: spelt from libs/config's `VENDOR_TOKENS`, the one
 * hand-written list of vendor letters (config, below every vendor lib, names each vendor's variables from it).
 * Many layers (database rows, paths, headers, provider-key routes) need the token list without loading any
 * vendor's catalogue, so it lives here rather than in the registry, whose entries are keyed by it.
 */
export const VENDOR_IDS = Object.freeze(VENDOR_TOKENS.map((letter) => `vendor_${letter}` as const));

export type VendorId = (typeof VENDOR_IDS)[number];
