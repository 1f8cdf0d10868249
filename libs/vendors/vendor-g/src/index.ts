export { vendorG } from './vendor-g.definition';
export { VendorGAdapter, createVendorGAdapter } from './vendor-g.adapter';
export * from './wire/vendor-g.formats';
export * from './wire/vendor-g.requests';
export * from './wire/vendor-g.errors';
export * from './wire/vendor-g.socket';
export * from './wire/vendor-g.voices';
export { vendorGAccess } from './wire/vendor-g.access';
export { vendorGEntry } from './vendor-g.entry';
