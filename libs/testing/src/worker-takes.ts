import { connect } from 'nats';
import { synthRequestV1, synthTakeV1 } from '@router/contracts';
import type { StackInfo } from './stack';

export interface WorkerTakeWatch {
  /** The takes asked of any worker for the org so far (every one sent before this call is counted). */
  asked(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Counts the takes a stack's workers are asked for one org's pieces and requests (their stream openings carry
 * the org's id), seen from a NATS connection of the test's own: a replay that asks none was served by the app
 * from its own cache lookup, so its key filter had heard of the commit. Other tests' takes on the same stack
 * are not counted.
 */
export async function watchWorkerTakes(
  stack: Pick<StackInfo, 'env'>,
  orgId: string,
): Promise<WorkerTakeWatch> {
  const nc = await connect({ servers: stack.env['NATS_URL'], name: 'worker-take-watch' });
  const prefix = stack.env['NATS_SUBJECT_PREFIX'];
  let asked = 0;
  for (const { subject } of [synthTakeV1, synthRequestV1]) {
    // Each worker serves them addressed to itself (`synth.take.v1.<worker>`).
    nc.subscribe(`${prefix ? `${prefix}.` : ''}${subject}.*`, {
      callback: (_error, msg) => {
        if (Buffer.from(msg.data).includes(orgId)) asked += 1;
      },
    });
  }
  await nc.flush(); // the server holds the subscriptions before any take is asked for
  return {
    async asked() {
      // The server routes a message to every subscriber as it takes it in, so whatever a worker was sent
      // before this round trip has reached this connection before its answer.
      await nc.flush();
      return asked;
    },
    close: () => nc.close(),
  };
}
