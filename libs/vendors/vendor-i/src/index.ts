export { vendorI } from './vendor-i.definition';
export { VendorIAdapter, createVendorIAdapter } from './vendor-i.adapter';
export * from './wire/vendor-i.version';
export * from './wire/vendor-i.formats';
export * from './wire/vendor-i.requests';
export * from './wire/vendor-i.events';
export * from './wire/vendor-i.errors';
export * from './wire/vendor-i.socket';
