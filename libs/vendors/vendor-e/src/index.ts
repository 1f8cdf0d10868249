export { vendorE } from './vendor-e.definition';
