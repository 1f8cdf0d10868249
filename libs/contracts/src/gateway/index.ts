export * from './gateway-draining';
