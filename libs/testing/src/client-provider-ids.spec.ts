// The published client imports no workspace lib, so it restates the vendor tokens; this holds its list to the
// registry's, so a vendor added to the registry fails here until the client names it too.
import { PROVIDER_IDS, type ProviderId } from '@router/client';
import { VENDOR_IDS, type VendorId } from '@router/vendors';

describe("the client's PROVIDER_IDS", () => {
  it("are the registry's vendor tokens, in its order", () => {
    expect([...PROVIDER_IDS]).toEqual([...VENDOR_IDS]);
  });

  it('type every vendor token, and only those', () => {
    const asVendor: VendorId[] = [...PROVIDER_IDS];
    const asProvider: ProviderId[] = [...VENDOR_IDS];
    expect(asVendor).toEqual(asProvider);
  });
});
