export { vendorB } from './vendor-b.definition';
export { VendorBAdapter, createVendorBAdapter } from './vendor-b.adapter';
export { vendorBAccess } from './wire/vendor-b.access';
export { vendorBEntry } from './vendor-b.entry';
