export { vendorA } from './vendor-a.definition';
