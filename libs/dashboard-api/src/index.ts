export * from './dashboard.app';
export * from './dashboard.module';
export * from './openapi';
export * from './prices';
