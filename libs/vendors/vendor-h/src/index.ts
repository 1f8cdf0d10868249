export { vendorH } from './vendor-h.definition';
export { VendorHAdapter, createVendorHAdapter } from './vendor-h.adapter';
export * from './wire/vendor-h.formats';
export * from './wire/vendor-h.requests';
export * from './wire/vendor-h.stream';
export * from './wire/vendor-h.errors';
export * from './wire/vendor-h.socket';
export { vendorHAccess } from './wire/vendor-h.access';
export { vendorHEntry } from './vendor-h.entry';
