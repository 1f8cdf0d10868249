export * from './synthesis-worker';
export * from './take';
export * from './provider-key.cache';
