export * from './key-directory';
export * from './org-limiter';
export * from './surface-routes';
export * from './gateway.server';
export * from './edge-gateway';
export * from './mirror-route';
export * from './tls-certificate';
