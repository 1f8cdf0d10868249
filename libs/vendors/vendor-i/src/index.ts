export { vendorI } from './vendor-i.definition';
