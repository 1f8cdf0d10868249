import type { AdapterFactory } from './vendor-adapter';
import type { VendorDefinition } from './vendor-definition.types';

/**
 * One vendor as the registry lists it: what its folder gives the rest of the router. Each folder exports
 * one (`vendorXEntry`); a per-vendor hook the shared libs need joins it as a field here, so the registry
 * stays one entry per vendor.
 */
export interface VendorEntry {
  readonly definition: VendorDefinition;
  readonly createAdapter: AdapterFactory;
}
