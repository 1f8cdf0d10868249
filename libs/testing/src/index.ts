export * from './processes';
export * from './services';
export * from './stack';
export * from './e2e-stack';
export * from './router-client';
export * from './spec-facts';
export * from './private-services';
export * from './stats';
