export { vendorI } from './vendor-i.definition';
export { VendorIAdapter, createVendorIAdapter } from './vendor-i.adapter';
