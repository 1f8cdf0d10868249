export { vendorD } from './vendor-d.definition';
export { VendorDAdapter, createVendorDAdapter } from './vendor-d.adapter';
export { vendorDAccess } from './wire/vendor-d.access';
export { vendorDEntry } from './vendor-d.entry';
