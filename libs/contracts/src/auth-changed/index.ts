export * from './auth-changed.message';
export * from './auth-changed.subject';
