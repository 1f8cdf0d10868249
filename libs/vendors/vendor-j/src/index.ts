export { vendorJ } from './vendor-j.definition';
export { VendorJAdapter, createVendorJAdapter } from './vendor-j.adapter';
export * from './wire/vendor-j.formats';
export * from './wire/vendor-j.requests';
export * from './wire/vendor-j.responses';
export * from './wire/vendor-j.errors';
export { VENDOR_J_KEY } from './wire/vendor-j.key';
export { vendorJAccess } from './wire/vendor-j.access';
export { vendorJEntry } from './vendor-j.entry';
