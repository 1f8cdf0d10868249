export * from './mirror-socket.session';
export * from './vendor-mirror';
export * from './mirror-http';
export * from './mirror-app';
