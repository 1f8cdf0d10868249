export { vendorJ } from './vendor-j.definition';
export { VendorJAdapter, createVendorJAdapter } from './vendor-j.adapter';
export { vendorJAccess } from './wire/vendor-j.access';
export { vendorJEntry } from './vendor-j.entry';
