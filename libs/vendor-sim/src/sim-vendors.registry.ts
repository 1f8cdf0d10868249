import { VENDOR_IDS, type VendorId } from '@router/vendors-core';
import type { SimKit, SimVendorFactory, SimVendorModule } from './kit/sim-vendor';
import { vendorASim } from './vendor-a/vendor-a.sim';
import { vendorBSim } from './vendor-b/vendor-b.sim';
import { vendorCSim } from './vendor-c/vendor-c.sim';
import { vendorDSim } from './vendor-d/vendor-d.sim';
import { vendorESim } from './vendor-e/vendor-e.sim';
import { vendorFSim } from './vendor-f/vendor-f.sim';
import { vendorGSim } from './vendor-g/vendor-g.sim';
import { vendorHSim } from './vendor-h/vendor-h.sim';
import { vendorISim } from './vendor-i/vendor-i.sim';
import { vendorJSim } from './vendor-j/vendor-j.sim';

/**
 * Every simulated vendor, keyed by token: a vendor in core's `VENDOR_IDS` without its simulator does not
 * compile, and `simulatedVendors` refuses a factory filed under another vendor's token. Kept here, not in the
 * registry's entries, so production code never loads the simulator.
 */
export const SIM_VENDORS: Readonly<Record<VendorId, SimVendorFactory>> = {
  vendor_a: vendorASim,
  vendor_b: vendorBSim,
  vendor_c: vendorCSim,
  vendor_d: vendorDSim,
  vendor_e: vendorESim,
  vendor_f: vendorFSim,
  vendor_g: vendorGSim,
  vendor_h: vendorHSim,
  vendor_i: vendorISim,
  vendor_j: vendorJSim,
};

/** Every simulated vendor built on `kit`, in token order; throws if one serves another vendor's token. */
export function simulatedVendors(kit: SimKit): SimVendorModule[] {
  return VENDOR_IDS.map((id) => {
    const simulated = SIM_VENDORS[id](kit);
    if (simulated.vendor !== id) throw new Error(`SIM_VENDORS.${id} simulates ${simulated.vendor}`);
    return simulated;
  });
}
