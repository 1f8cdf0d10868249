export * from './native-api.module';
export * from './openapi/openapi';
export { OPENAPI_DOCUMENT } from './tokens';
export * from './native-api.app';
