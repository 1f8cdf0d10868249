export { vendorE } from './vendor-e.definition';
export { VendorEAdapter, createVendorEAdapter } from './vendor-e.adapter';
export * from './wire/vendor-e.formats';
export * from './wire/vendor-e.requests';
export * from './wire/vendor-e.errors';
export * from './wire/vendor-e.socket';
export * from './wire/vendor-e.voices';
export { vendorEAccess } from './wire/vendor-e.access';
export { vendorEEntry } from './vendor-e.entry';
