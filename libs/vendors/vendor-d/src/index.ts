export { vendorD } from './vendor-d.definition';
export { VendorDAdapter, createVendorDAdapter } from './vendor-d.adapter';
export * from './wire/vendor-d.formats';
export * from './wire/vendor-d.requests';
export * from './wire/vendor-d.stream';
export * from './wire/vendor-d.errors';
export { VENDOR_D_KEY } from './wire/vendor-d.key';
export { vendorDAccess } from './wire/vendor-d.access';
export { vendorDEntry } from './vendor-d.entry';
