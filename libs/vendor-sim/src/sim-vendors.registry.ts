import type { SimVendorFactory } from './kit/sim-vendor';
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

/** Every simulated vendor. The one list a new vendor's simulator is added to. */
export const SIM_VENDORS: readonly SimVendorFactory[] = [
  vendorASim,
  vendorBSim,
  vendorCSim,
  vendorDSim,
  vendorESim,
  vendorFSim,
  vendorGSim,
  vendorHSim,
  vendorISim,
  vendorJSim,
];
