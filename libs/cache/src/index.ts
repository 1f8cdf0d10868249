export * from './cache.handlers';
