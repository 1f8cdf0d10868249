export * from './worker-directory';
export * from './hot-tier';
export * from './piece-resolver';
export * from './reply';
export * from './router-errors';
export * from './pipeline';
export * from './async-queue';
export * from './stored-settings';
