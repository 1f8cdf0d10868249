import { mirrorAccess, MIRRORS } from '@router/vendors';
import { placedRouterKey } from './mirror-e2e';

describe("the mirror e2e kit's router key", () => {
  it.each(MIRRORS.map(({ vendor }) => [vendor] as const))(
    "%s: goes where the mirror's access reads it",
    (vendor) => {
      const placed = placedRouterKey(vendor, 'rtr_kit-key');
      const access = mirrorAccess(vendor);
      const request = {
        method: 'POST',
        path: '/any',
        headers: placed.headers,
        query: new URLSearchParams(placed.query.map(([name, value]): [string, string] => [name, value])),
      };
      expect(access.readKey(request)).toBe('rtr_kit-key');
    },
  );

  it("goes where the vendor's own clients put theirs", () => {
    expect(placedRouterKey('vendor_b', 'k')).toEqual({ headers: { 'x-api-key': 'k' }, query: [] });
    expect(placedRouterKey('vendor_e', 'k')).toEqual({ headers: { authorization: 'Token k' }, query: [] });
    expect(placedRouterKey('vendor_h', 'k')).toEqual({ headers: { authorization: 'Bearer k' }, query: [] });
  });
});
