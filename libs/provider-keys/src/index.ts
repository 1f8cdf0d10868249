export * from './key-ring';
export * from './provider-key.store';
export * from './provider-key.cache';
export * from './rotate-master-key';
export * from './key-failure';
