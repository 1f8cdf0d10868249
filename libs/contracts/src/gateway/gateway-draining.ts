import { check, type Checker, defineEvent } from '../core';

/**
 * A gateway is going away (SIGTERM): the apps behind it drain the sockets that came through it, each closing
 * with its surface's going-away once it has played out what it was given, so that the gateway's own drain
 * ends with no sentence cut. The gateway names itself on every upgrade it forwards (`x-router-gateway`).
 */
export interface GatewayDraining {
  gatewayId: string;
}

export const gatewayDraining: Checker<GatewayDraining> = check.object({
  gatewayId: check.string({ minLength: 1 }),
});

export const gatewayDrainingV1 = defineEvent({ subject: 'gateway.draining.v1', payload: gatewayDraining });
