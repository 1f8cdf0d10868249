export * from './native-api.module';
export * from './openapi/openapi';
export * from './native-api.app';
