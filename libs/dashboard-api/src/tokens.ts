export const ADMIN = Symbol('ADMIN');
export const PRISMA_CLIENT = Symbol('PRISMA_CLIENT');
export const USAGE_PRICES = Symbol('USAGE_PRICES');
export const COOKIE_SETTINGS = Symbol('COOKIE_SETTINGS');
export const WEB_ROOT = Symbol('WEB_ROOT');
