export { vendorF } from './vendor-f.definition';
