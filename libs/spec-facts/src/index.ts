export * from './spec-facts';
