export * from './api-key';
export * from './internal-identity';
