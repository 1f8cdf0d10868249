export { vendorC } from './vendor-c.definition';
