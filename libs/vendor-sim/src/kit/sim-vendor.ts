import type { Logger } from '@router/observability';
import type { VendorId } from '@router/vendors-core';
import type { AudioSpec } from './audio/audio-spec';
import { createTake, type Take } from './audio/take';
import type { FaultSpec } from './faults';
import type { HttpExchange } from './http/http-exchange';
import type { HttpRoute } from './http/http-route';
import type { SimState } from './sim-state';
import { simKeyId } from './sim-keys';
import type { SocketRoute } from './http/socket-route';

/** What every vendor simulator is built from: the shared state (pacing, faults, calls) and a logger. */
export interface SimKit {
  readonly state: SimState;
  readonly logger: Logger;
}

/** One simulated vendor, mounted under `/<vendor token>` on the simulator's port. */
export interface SimVendorModule {
  readonly vendor: VendorId;
  readonly routes: readonly HttpRoute[];
  readonly sockets: readonly SocketRoute[];
  /** The vendor's answer to a path it does not have. */
  notFound(exchange: HttpExchange): void;
  /** Test controls of the vendor's own state (stored settings, dictionaries), under `/__sim/<vendor token>`. */
  readonly control?: readonly HttpRoute[];
}

export type SimVendorFactory = (kit: SimKit) => SimVendorModule;

export interface TakeRequest {
  readonly vendor: VendorId;
  /** The endpoint name the call log and fault filters use, e.g. `rest`, `stream`, `ws`. */
  readonly endpoint: string;
  readonly key: string;
  readonly text: string;
  readonly spec: AudioSpec;
  readonly speed?: number;
}

/** A take just made for a call, with the fault injected into that call, if any. */
export interface BegunTake {
  readonly take: Take;
  readonly fault: FaultSpec | undefined;
}

/** Synthesizes one take and records the call; returns the fault injected into it, if any. */
export function beginTake(kit: SimKit, request: TakeRequest): BegunTake {
  const take = createTake(request.text, request.spec, {
    msPerChar: kit.state.defaults.msPerChar,
    ...(request.speed !== undefined ? { speed: request.speed } : {}),
  });
  const fault = kit.state.startCall({
    vendor: request.vendor,
    endpoint: request.endpoint,
    keyId: simKeyId(request.key),
    text: request.text,
    takeId: take.takeId,
  });
  return { take, fault };
}
