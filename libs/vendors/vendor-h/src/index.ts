export { vendorH } from './vendor-h.definition';
