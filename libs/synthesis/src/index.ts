export * from './synthesis-worker';
export * from './take';
