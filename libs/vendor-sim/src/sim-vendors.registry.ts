import type { SimVendorFactory } from './kit/sim-vendor';
import { vendorASim } from './vendor-a/vendor-a.sim';
import { vendorBSim } from './vendor-b/vendor-b.sim';
import { vendorCSim } from './vendor-c/vendor-c.sim';

/** Every simulated vendor. The one list a new vendor's simulator is added to. */
export const SIM_VENDORS: readonly SimVendorFactory[] = [vendorASim, vendorBSim, vendorCSim];
