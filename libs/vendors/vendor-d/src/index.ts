export { vendorD } from './vendor-d.definition';
