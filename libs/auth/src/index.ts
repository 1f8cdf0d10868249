export * from './api-key';
export * from './internal-identity';
export * from './dashboard-session';
export * from './same-secret';
export * from './same-origin';
export * from './org-standing';
