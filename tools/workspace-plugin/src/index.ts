export { vendorGenerator, vendorNames } from './vendor/vendor.generator';
export type { VendorGeneratorOptions, VendorNames } from './vendor/vendor.generator';
