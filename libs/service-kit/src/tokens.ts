/** Injection tokens shared by every app's composition. */
export const LOGGER = Symbol('LOGGER');
export const HEALTH = Symbol('HEALTH');
export const CLOCK = Symbol('CLOCK');
export const IDENTITY_POLICY = Symbol('IDENTITY_POLICY');

/** Time comes from here, so tests can move it instead of waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
