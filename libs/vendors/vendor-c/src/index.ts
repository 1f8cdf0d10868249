export { vendorC } from './vendor-c.definition';
export { VendorCAdapter, createVendorCAdapter } from './vendor-c.adapter';
export { vendorCAccess } from './wire/vendor-c.access';
export { takeVendorCMessageKey, vendorCMessageKey } from './wire/vendor-c.access';
