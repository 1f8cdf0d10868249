export { vendorA } from './vendor-a.definition';
export { VendorAAdapter, createVendorAAdapter } from './vendor-a.adapter';
