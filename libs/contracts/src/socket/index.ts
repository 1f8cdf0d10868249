export * from './socket-idle';
