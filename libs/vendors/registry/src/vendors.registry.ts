import { vendorAEntry } from '@router/vendor-a';
import { vendorBEntry } from '@router/vendor-b';
import { vendorCEntry } from '@router/vendor-c';
import { vendorDEntry } from '@router/vendor-d';
import { vendorEEntry } from '@router/vendor-e';
import { vendorFEntry } from '@router/vendor-f';
import { vendorGEntry } from '@router/vendor-g';
import { vendorHEntry } from '@router/vendor-h';
import { vendorIEntry } from '@router/vendor-i';
import { vendorJEntry } from '@router/vendor-j';
import {
  VENDOR_IDS,
  toCatalogueResponse,
  type CatalogueResponse,
  type MirrorAccess,
  type VendorDefinition,
  type VendorEntry,
  type VendorId,
  type VendorMirror,
} from '@router/vendors-core';

/**
 * Every vendor: the one place a vendor's folder is listed. Keyed by token, so a token in core's `VENDOR_IDS`
 * without its entry does not compile.
 */
export const VENDOR_ENTRIES: Readonly<Record<VendorId, VendorEntry>> = Object.freeze({
  vendor_a: vendorAEntry,
  vendor_b: vendorBEntry,
  vendor_c: vendorCEntry,
  vendor_d: vendorDEntry,
  vendor_e: vendorEEntry,
  vendor_f: vendorFEntry,
  vendor_g: vendorGEntry,
  vendor_h: vendorHEntry,
  vendor_i: vendorIEntry,
  vendor_j: vendorJEntry,
});

// Fail at load, not at the first request, if an entry is filed under another vendor's token.
for (const id of VENDOR_IDS) {
  const listed = VENDOR_ENTRIES[id].definition.id;
  if (listed !== id) throw new Error(`VENDOR_ENTRIES.${id} holds the definition of ${listed}`);
  const mirrored = VENDOR_ENTRIES[id].mirror?.vendor;
  if (mirrored !== undefined && mirrored !== id)
    throw new Error(`VENDOR_ENTRIES.${id} holds the mirror of ${mirrored}`);
}

/** Every vendor's definition, in token order. */
export const VENDORS: readonly VendorDefinition[] = Object.freeze(
  VENDOR_IDS.map((id) => VENDOR_ENTRIES[id].definition),
);

/**
 * Every vendor's mirror, in token order. Each is one app, `mirror-vendor-x`; the e2e stack, the gateway's
 * mirror URLs, the standalone router and the deployment files (tools/deploy-gen) all follow from this list.
 */
export const MIRRORS: readonly VendorMirror[] = Object.freeze(
  VENDOR_IDS.flatMap((id) => VENDOR_ENTRIES[id].mirror ?? []),
);

/**
 * The vendors `GET /v1/voices` serves, in token order: those whose adapter lists voices. Read off each entry's
 * adapter, made once with a placeholder base URL (an adapter connects only when called).
 */
export const VOICE_VENDORS: readonly VendorId[] = Object.freeze(
  VENDOR_IDS.filter(
    (id) => VENDOR_ENTRIES[id].createAdapter({ baseUrl: 'http://voices.invalid' }).listVoices !== undefined,
  ),
);

const BY_ID: ReadonlyMap<string, VendorDefinition> = new Map(VENDORS.map((v) => [v.id, v]));

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

/** A vendor's mirror access (key placement, refusals, 404): what the gateway builds its route from. */
export function mirrorAccess(id: VendorId): MirrorAccess {
  return VENDOR_ENTRIES[id].access;
}
