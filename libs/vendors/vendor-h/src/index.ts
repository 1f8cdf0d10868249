export { vendorH } from './vendor-h.definition';
export { VendorHAdapter, createVendorHAdapter } from './vendor-h.adapter';
export { vendorHEntry } from './vendor-h.entry';
