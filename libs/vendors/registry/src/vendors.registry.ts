import { vendorA } from '@router/vendor-a';
import { vendorB } from '@router/vendor-b';
import { vendorC } from '@router/vendor-c';
import { vendorD } from '@router/vendor-d';
import { vendorE } from '@router/vendor-e';
import { vendorF } from '@router/vendor-f';
import { vendorG } from '@router/vendor-g';
import { vendorH } from '@router/vendor-h';
import { vendorI } from '@router/vendor-i';
import { vendorJ } from '@router/vendor-j';
import {
  VENDOR_IDS,
  toCatalogueResponse,
  type CatalogueResponse,
  type VendorDefinition,
  type VendorId,
} from '@router/vendors-core';

/** Every vendor, in token order. The one list a new vendor is added to. */
export const VENDORS: readonly VendorDefinition[] = Object.freeze([
  vendorA,
  vendorB,
  vendorC,
  vendorD,
  vendorE,
  vendorF,
  vendorG,
  vendorH,
  vendorI,
  vendorJ,
]);

const BY_ID: ReadonlyMap<string, VendorDefinition> = new Map(VENDORS.map((v) => [v.id, v]));

// Fail at load, not at the first request, if the list and the token list ever drift apart.
if (VENDORS.map((v) => v.id).join() !== VENDOR_IDS.join()) {
  throw new Error('VENDORS must hold exactly one definition per vendor token, in token order');
}

export function isVendorId(value: unknown): value is VendorId {
  return typeof value === 'string' && BY_ID.has(value);
}

/** The vendor's definition. Throws for a string that is not a vendor token; check with `isVendorId` first. */
export function getVendor(id: VendorId): VendorDefinition {
  const vendor = BY_ID.get(id);
  if (!vendor) throw new Error(`Unknown vendor ${String(id)}`);
  return vendor;
}

/** The vendor's definition, or undefined when `id` is not a vendor token (for ids straight from a client). */
export function findVendor(id: string): VendorDefinition | undefined {
  return BY_ID.get(id);
}

/** The body of `GET /v1/models`, built once: the catalogue never changes while the process runs. */
const CATALOGUE_JSON = JSON.stringify(toCatalogueResponse(VENDORS));

/** The body of `GET /v1/models` (a fresh object each call, so a caller cannot alter the next one). */
export function catalogueResponse(): CatalogueResponse {
  return JSON.parse(CATALOGUE_JSON) as CatalogueResponse;
}

/** The serialised body of `GET /v1/models`, for handlers that send it as it is. */
export function catalogueResponseJson(): string {
  return CATALOGUE_JSON;
}
