export * from './vendors.registry';
// Re-exported so callers that only need the token list or the public types can import the registry alone.
export {
  VENDOR_IDS,
  type CatalogueResponse,
  type Model,
  type Option,
  type Provider,
  type VendorDefinition,
  type VendorId,
} from '@router/vendors-core';
export * from './upstreams';
