export { vendorE } from './vendor-e.definition';
export { VendorEAdapter, createVendorEAdapter } from './vendor-e.adapter';
export * from './wire/vendor-e.formats';
export * from './wire/vendor-e.requests';
export * from './wire/vendor-e.errors';
export * from './wire/vendor-e.socket';
export * from './wire/vendor-e.voices';
export { VENDOR_E_KEY } from './wire/vendor-e.key';
export { vendorEAccess } from './wire/vendor-e.access';
export { vendorEDropIn, vendorERequestKeying, VENDOR_E_SPEAK_PATHS } from './wire/vendor-e.drop-in';
export {
  vendorEMirrorSettings,
  VendorEV1Connection,
  VendorEV2Connection,
} from './wire/vendor-e.mirror-socket';
export { vendorEMirror } from './wire/vendor-e.mirror';
export { vendorEEntry } from './vendor-e.entry';
