export * from './env-schema';
export * from './common-env';
