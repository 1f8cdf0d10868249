export * from './mirror-socket.session';
