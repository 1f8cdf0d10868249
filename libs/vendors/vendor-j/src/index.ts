export { vendorJ } from './vendor-j.definition';
