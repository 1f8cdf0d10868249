/** Injection tokens shared by every app's composition. */
export const LOGGER = Symbol('LOGGER');
export const HEALTH = Symbol('HEALTH');
export const CLOCK = Symbol('CLOCK');
export const SIGNING_SECRET = Symbol('SIGNING_SECRET');

/** Time comes from here, so tests can move it instead of waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
