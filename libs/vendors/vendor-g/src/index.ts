export { vendorG } from './vendor-g.definition';
