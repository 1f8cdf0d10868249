export * from './json.codec';
export * from './client-json';
export * from './payload-check.error';
export * from './payload.checkers';
export * from './subject.definitions';
