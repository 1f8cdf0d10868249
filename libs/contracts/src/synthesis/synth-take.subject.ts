import { defineEvent, defineStream } from '../core';
import {
  synthTakeHeader,
  synthTakeRequest,
  synthStop,
  synthTakeTrailer,
  synthWorkerHeartbeat,
} from './synth-take.message';

/**
 * A take: the worker streams the vendor's audio as it arrives, then a trailer. Requests are addressed to one
 * worker (`synth.take.v1.<workerId>`) chosen by the key, so identical takes meet on the same worker.
 */
export const synthTakeV1 = defineStream({
  subject: 'synth.take.v1',
  request: synthTakeRequest,
  header: synthTakeHeader,
  trailer: synthTakeTrailer,
});

export const synthWorkerHeartbeatV1 = defineEvent({
  subject: 'synth.worker.v1',
  payload: synthWorkerHeartbeat,
});

/** Stop a take at the vendor (interruption), addressed to its worker (`synth.stop.v1.<workerId>`). */
export const synthStopV1 = defineEvent({
  subject: 'synth.stop.v1',
  payload: synthStop,
});
