export { vendorF } from './vendor-f.definition';
export { VendorFAdapter, createVendorFAdapter } from './vendor-f.adapter';
export * from './wire/vendor-f.formats';
export * from './wire/vendor-f.requests';
export * from './wire/vendor-f.errors';
export * from './wire/vendor-f.socket';
export * from './wire/vendor-f.voices';
export { vendorFAccess } from './wire/vendor-f.access';
export { vendorFEntry } from './vendor-f.entry';
