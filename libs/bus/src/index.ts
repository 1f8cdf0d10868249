export * from './bus.error';
export * from './bus.interface';
export * from './bus.module';
export { isBus, MAX_STREAM_WINDOW } from './bus.options';
export type { BusOptions, CommonBusOptions, MemoryBusOptions, NatsBusOptions } from './bus.options';
export * from './create-bus';
export * from './in-process-bus';
export * from './nats-bus';
