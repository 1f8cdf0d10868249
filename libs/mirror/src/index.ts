export * from './mirror-socket.session';
export * from './mirror-http';
export * from './mirror-app';
export * from './run-mirror-app';
