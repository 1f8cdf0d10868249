import { vendorAAccess } from '@router/vendor-a';
import { vendorBAccess } from '@router/vendor-b';
import { vendorCAccess } from '@router/vendor-c';
import { vendorDAccess } from '@router/vendor-d';
import { vendorEAccess } from '@router/vendor-e';
import { vendorFAccess } from '@router/vendor-f';
import { vendorGAccess } from '@router/vendor-g';
import { vendorHAccess } from '@router/vendor-h';
import { vendorIAccess } from '@router/vendor-i';
import { vendorJAccess } from '@router/vendor-j';
import type { MirrorAccess, VendorId } from '@router/vendors-core';

/** Each vendor's mirror access (key placement, refusals, 404), by token: what the gateway builds its routes from. */
const MIRROR_ACCESS: Readonly<Record<VendorId, MirrorAccess>> = Object.freeze({
  vendor_a: vendorAAccess,
  vendor_b: vendorBAccess,
  vendor_c: vendorCAccess,
  vendor_d: vendorDAccess,
  vendor_e: vendorEAccess,
  vendor_f: vendorFAccess,
  vendor_g: vendorGAccess,
  vendor_h: vendorHAccess,
  vendor_i: vendorIAccess,
  vendor_j: vendorJAccess,
});

export function mirrorAccess(id: VendorId): MirrorAccess {
  return MIRROR_ACCESS[id];
}
