export { vendorA } from './vendor-a.definition';
export { VendorAAdapter, createVendorAAdapter } from './vendor-a.adapter';
export { vendorAEntry } from './vendor-a.entry';
