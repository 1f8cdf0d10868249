export { vendorB } from './vendor-b.definition';
