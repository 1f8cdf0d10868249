export { vendorC } from './vendor-c.definition';
export { VendorCAdapter, createVendorCAdapter } from './vendor-c.adapter';
export {
  vendorCDropIn,
  vendorCRequestKeying,
  VENDOR_C_DEFAULT_DIALOGUE_MODEL,
  VENDOR_C_DEFAULT_MODEL,
  VENDOR_C_DEFAULT_OUTPUT_FORMAT,
} from './wire/vendor-c.request-key';
export { takeVendorCMessageKey, vendorCAccess, vendorCMessageKey } from './wire/vendor-c.access';
export { vendorCMirror } from './wire/vendor-c.mirror';
