export * from './env-schema';
export * from './common-env';
export * from './mirror-env';
export * from './tls-files';
export * from './app-env';
export * from './env-docs';
