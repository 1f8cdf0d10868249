export const ADMIN = Symbol('ADMIN');
export const PRISMA_CLIENT = Symbol('PRISMA_CLIENT');
export const USAGE_PRICES = Symbol('USAGE_PRICES');
export const COOKIE_SETTINGS = Symbol('COOKIE_SETTINGS');
export const WEB_ROOT = Symbol('WEB_ROOT');
export const SIGN_IN_LIMITER = Symbol('SIGN_IN_LIMITER');
export const AUDIT_LOG = Symbol('AUDIT_LOG');
export const BUS = Symbol('BUS');
