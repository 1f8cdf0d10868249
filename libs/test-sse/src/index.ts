export * from './sse-events';
