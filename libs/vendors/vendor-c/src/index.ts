export { vendorC } from './vendor-c.definition';
export { VendorCAdapter, createVendorCAdapter } from './vendor-c.adapter';
