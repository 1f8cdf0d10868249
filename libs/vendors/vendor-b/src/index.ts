export { vendorB } from './vendor-b.definition';
export { VendorBAdapter, createVendorBAdapter } from './vendor-b.adapter';
export { vendorBEntry } from './vendor-b.entry';
