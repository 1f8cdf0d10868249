export { vendorB } from './vendor-b.definition';
export { VendorBAdapter, createVendorBAdapter } from './vendor-b.adapter';
export * from './wire/vendor-b.formats';
export * from './wire/vendor-b.requests';
export * from './wire/vendor-b.stream';
export * from './wire/vendor-b.errors';
export * from './wire/vendor-b.voices';
export { vendorBAccess } from './wire/vendor-b.access';
export { vendorBEntry } from './vendor-b.entry';
