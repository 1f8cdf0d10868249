export { vendorF } from './vendor-f.definition';
export { VendorFAdapter, createVendorFAdapter } from './vendor-f.adapter';
export { vendorFEntry } from './vendor-f.entry';
