export { vendorI } from './vendor-i.definition';
export { VendorIAdapter, createVendorIAdapter } from './vendor-i.adapter';
export * from './wire/vendor-i.formats';
export * from './wire/vendor-i.requests';
export * from './wire/vendor-i.events';
export * from './wire/vendor-i.errors';
export * from './wire/vendor-i.socket';
export { VENDOR_I_KEY } from './wire/vendor-i.key';
export { vendorIAccess } from './wire/vendor-i.access';
export { vendorIMirror } from './wire/vendor-i.mirror';
export { VendorIConnection, vendorISocketRoutes } from './wire/vendor-i.mirror-socket';
export { vendorISocketSettings } from './wire/vendor-i.settings';
export { vendorIDropIn, vendorIRequestKeying } from './wire/vendor-i.drop-in';
export {
  VENDOR_I_JSON_ERRORS_FROM,
  VENDOR_I_OLDEST_VERSION,
  VENDOR_I_RELEASES,
  VENDOR_I_VERSION_HEADER,
  VENDOR_I_VERSION_QUERY,
  isKnownVendorIVersion,
  vendorIJsonErrors,
  vendorIRelease,
  vendorIRequestedVersion,
} from './wire/vendor-i.access';
export { vendorIEntry } from './vendor-i.entry';
