export { vendorF } from './vendor-f.definition';
export { VendorFAdapter, createVendorFAdapter } from './vendor-f.adapter';
export { vendorFAccess } from './wire/vendor-f.access';
export { vendorFEntry } from './vendor-f.entry';
