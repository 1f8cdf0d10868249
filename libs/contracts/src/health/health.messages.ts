import { check, type Checker } from '../core';

/** A health probe carries nothing. */
export type HealthRequest = Record<string, never>;

export interface HealthReply {
  /** The answering service's name, e.g. `cache-service`. */
  service: string;
  ok: boolean;
  uptimeMs: number;
}

export const healthRequest: Checker<HealthRequest> = check.empty();

export const healthReply: Checker<HealthReply> = check.object({
  service: check.string({ minLength: 1 }),
  ok: check.boolean(),
  uptimeMs: check.number({ min: 0 }),
});
