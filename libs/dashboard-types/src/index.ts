export type * from './dashboard-api.types';
