export * from './synth-take.message';
export * from './synth-take.subject';
export * from './synth-request.message';
export * from './key-shards';
