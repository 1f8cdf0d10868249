export { vendorE } from './vendor-e.definition';
export { VendorEAdapter, createVendorEAdapter } from './vendor-e.adapter';
export { vendorEEntry } from './vendor-e.entry';
