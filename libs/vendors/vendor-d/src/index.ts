export { vendorD } from './vendor-d.definition';
export { VendorDAdapter, createVendorDAdapter } from './vendor-d.adapter';
export { vendorDEntry } from './vendor-d.entry';
