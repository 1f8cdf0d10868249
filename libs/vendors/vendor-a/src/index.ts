export { vendorA } from './vendor-a.definition';
export { VendorAAdapter, createVendorAAdapter } from './vendor-a.adapter';
export { vendorAAccess } from './wire/vendor-a.access';
export { vendorAEntry } from './vendor-a.entry';
