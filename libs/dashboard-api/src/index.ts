export * from './dashboard.app';
export * from './dashboard.module';
export * from './prices';
export { signInLimits } from './session/sign-in-limits';
