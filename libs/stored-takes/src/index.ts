export * from './stored-take';
export * from './blob-takes';
