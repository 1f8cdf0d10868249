export { vendorG } from './vendor-g.definition';
export { VendorGAdapter, createVendorGAdapter } from './vendor-g.adapter';
export { vendorGEntry } from './vendor-g.entry';
