export { vendorJ } from './vendor-j.definition';
export { VendorJAdapter, createVendorJAdapter } from './vendor-j.adapter';
export { vendorJEntry } from './vendor-j.entry';
