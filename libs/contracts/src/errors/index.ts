export * from './error-codes';
export * from './router-error';
export * from './org-limits';
export * from './store-unreachable';
export * from './held-through-outage';
