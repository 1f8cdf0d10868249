export * from './key-ring';
export * from './provider-key.store';
