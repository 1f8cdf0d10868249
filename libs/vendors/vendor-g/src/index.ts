export { vendorG } from './vendor-g.definition';
export { VendorGAdapter, createVendorGAdapter } from './vendor-g.adapter';
