export * from './core';
export * from './health';
export * from './auth-changed';
export * from './errors';
export * from './synthesis';
export * from './cache';
export * from './gateway';
export * from './socket';
