export * from './cache.messages';
export * from './cache.subjects';
