export { vendorI } from './vendor-i.definition';
export { VendorIAdapter, createVendorIAdapter } from './vendor-i.adapter';
export { vendorIEntry } from './vendor-i.entry';
