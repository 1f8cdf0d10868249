import { getVendor, type VendorId } from '@router/vendors';
import { TEXT_LIMITS } from '@router/vendor-a';
import { VENDOR_B_TEXT_LIMIT } from '@router/vendor-b';
import { MODEL_CHARACTER_LIMITS } from '@router/vendor-c';
import { VENDOR_D_TEXT_LIMIT } from '@router/vendor-d';
import { VENDOR_E_TEXT_LIMIT } from '@router/vendor-e';
import { VENDOR_F_TEXT_LIMIT } from '@router/vendor-f';
import { VENDOR_G_TEXT_LIMIT } from '@router/vendor-g';
import { VENDOR_H_TEXT_LIMIT } from '@router/vendor-h';
import { VENDOR_I_TEXT_LIMIT } from '@router/vendor-i';
import { VENDOR_J_TEXT_LIMIT } from '@router/vendor-j';

// Each simulator refuses text over its vendor's limit, as the vendor does, so a piece the router cut too long
// would fail in every test that reaches it. Here: the router's limit never exceeds what the simulated vendor
// takes on any of its endpoints or models.
const SIMULATED_LIMITS: Readonly<Record<VendorId, number>> = {
  vendor_a: Math.min(...Object.values(TEXT_LIMITS)),
  vendor_b: VENDOR_B_TEXT_LIMIT,
  vendor_c: Math.min(...Object.values(MODEL_CHARACTER_LIMITS)),
  vendor_d: VENDOR_D_TEXT_LIMIT,
  vendor_e: VENDOR_E_TEXT_LIMIT,
  vendor_f: VENDOR_F_TEXT_LIMIT,
  vendor_g: VENDOR_G_TEXT_LIMIT,
  vendor_h: VENDOR_H_TEXT_LIMIT,
  vendor_i: VENDOR_I_TEXT_LIMIT,
  vendor_j: VENDOR_J_TEXT_LIMIT,
};

describe('simulated vendors and the router agree on input limits', () => {
  it.each(Object.entries(SIMULATED_LIMITS) as Array<[VendorId, number]>)(
    '%s: the router cuts pieces to at most what the simulator takes (%d)',
    (vendor, simulated) => {
      expect(getVendor(vendor).maxInputChars).toBeLessThanOrEqual(simulated);
    },
  );

  it('vendor_a, whose limits are stated: the router uses the smaller, the REST endpoint', () => {
    expect(getVendor('vendor_a').maxInputChars).toBe(TEXT_LIMITS.rest);
  });
});
