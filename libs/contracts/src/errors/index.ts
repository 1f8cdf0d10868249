export * from './error-codes';
export * from './router-error';
