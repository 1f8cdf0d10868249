export { vendorH } from './vendor-h.definition';
export { VendorHAdapter, createVendorHAdapter } from './vendor-h.adapter';
export { vendorHAccess } from './wire/vendor-h.access';
export { vendorHEntry } from './vendor-h.entry';
