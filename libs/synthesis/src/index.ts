export * from './synthesis.handlers';
