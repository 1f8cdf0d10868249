export { vendorA } from './vendor-a.definition';
export { VendorAAdapter, createVendorAAdapter } from './vendor-a.adapter';
export * from './wire/vendor-a.formats';
export * from './wire/vendor-a.requests';
export * from './wire/vendor-a.responses';
export * from './wire/vendor-a.errors';
export * from './wire/vendor-a.socket';
export { vendorAAccess } from './wire/vendor-a.access';
export { vendorAEntry } from './vendor-a.entry';
