export * from './key-ring';
export * from './provider-key.store';
export * from './provider-key.cache';
