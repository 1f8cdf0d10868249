import { BusRemoteError, toBusErrorJSON } from '@router/bus';
import { RouterError } from '@router/contracts';
import { vendorFailure } from '@router/vendors-core';
import { asRouterError } from './router-errors';

describe('asRouterError', () => {
  it("rebuilds a vendor's failure that crossed the bus with its status, message and the vendor's own code", () => {
    const thrown = vendorFailure('vendor_i', 404, 'Voice v1 was not found', 'voice_not_found');
    const rebuilt = asRouterError(BusRemoteError.fromJSON(toBusErrorJSON(thrown)));
    expect(rebuilt).toBeInstanceOf(RouterError);
    expect(rebuilt).toMatchObject({
      code: 'provider_rejected',
      message: 'Voice v1 was not found',
      providerStatus: 404,
      providerCode: 'voice_not_found',
    });
  });

  it('leaves the code out where the vendor named none', () => {
    const thrown = vendorFailure('vendor_i', 503, 'busy');
    const rebuilt = asRouterError(BusRemoteError.fromJSON(toBusErrorJSON(thrown)));
    expect(rebuilt).toMatchObject({ code: 'provider_unavailable', providerStatus: 503 });
    expect(rebuilt.providerCode).toBeUndefined();
  });
});
