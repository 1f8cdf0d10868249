export { vendorG } from './vendor-g.definition';
export { VendorGAdapter, createVendorGAdapter } from './vendor-g.adapter';
export { vendorGAccess } from './wire/vendor-g.access';
export { vendorGEntry } from './vendor-g.entry';
