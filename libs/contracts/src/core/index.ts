export * from './json.codec';
export * from './json-depth';
export * from './payload-check.error';
export * from './payload.checkers';
export * from './subject.definitions';
