import { defineEvent, defineStream } from '../core';
import { responseHead, synthRequestTake, synthRequestTrailer } from './synth-request.message';
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

/**
 * A whole-request take (a drop-in REST/SSE request): the vendor's status and kept headers, its body as it
 * arrives, then a trailer. Addressed to one worker (`synth.request.v1.<workerId>`) chosen by the key, as
 * `synth.take.v1` is, and asked only of workers whose heartbeat lists it (`serves`), so a worker from before
 * it never receives one.
 */
export const synthRequestV1 = defineStream({
  subject: 'synth.request.v1',
  request: synthRequestTake,
  header: responseHead,
  trailer: synthRequestTrailer,
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
