export { vendorH } from './vendor-h.definition';
export { VendorHAdapter, createVendorHAdapter } from './vendor-h.adapter';
