import type { MirrorAccess } from './mirror-access';
import type { AdapterFactory } from './vendor-adapter';
import type { VendorDefinition } from './vendor-definition.types';
import type { VendorMirror } from './vendor-mirror';

/**
 * One vendor as the registry lists it: what its folder gives the rest of the router. Each folder exports
 * one (`vendorXEntry`); a per-vendor hook the shared libs need joins it as a field here, so the registry
 * stays one entry per vendor.
 */
export interface VendorEntry {
  readonly definition: VendorDefinition;
  readonly createAdapter: AdapterFactory;
  /** Where its clients put the router key and how it refuses: the gateway builds its mirror route from it. */
  readonly access: MirrorAccess;
  /** What its mirror app serves, once the vendor has one (its `access` is the same object). */
  readonly mirror?: VendorMirror;
}
