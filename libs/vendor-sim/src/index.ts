export * from './vendor-sim.app';
