export * from './tokens';
export * from './identity.guard';
export * from './envelope.filter';
export * from './health.controller';
export * from './service-kit.module';
export * from './bootstrap';
export * from './validation';
export * from './change-notifier';
