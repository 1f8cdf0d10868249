export * from './health.messages';
export * from './health.subjects';
