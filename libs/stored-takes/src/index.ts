export * from './stored-take';
