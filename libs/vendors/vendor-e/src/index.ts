export { vendorE } from './vendor-e.definition';
export { VendorEAdapter, createVendorEAdapter } from './vendor-e.adapter';
export { vendorEAccess } from './wire/vendor-e.access';
export { vendorEEntry } from './vendor-e.entry';
