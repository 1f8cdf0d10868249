import type { OutgoingHttpHeaders } from 'node:http';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playChunked, playSse, sseEvent } from '../kit/http/play-stream';
import { authorizedKey } from '../kit/sim-keys';
import type { FaultSpec } from '../kit/faults';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import {
  parseVendorDRequest,
  VENDOR_D_CONTENT_TYPES,
  VENDOR_D_SPEECH_PATH,
  vendorDAuthProblem,
  vendorDDeltaEvent,
  vendorDDoneEvent,
  vendorDErrorEvent,
  vendorDAnswersEvents,
  vendorDRequestId,
  VENDOR_D_KEY,
  VENDOR_D_STREAM_END,
} from '@router/vendor-d';
import { sendVendorDError, vendorDFaultProblem } from './vendor-d.errors';

/** The key where the vendor takes it (`VENDOR_D_KEY`); answers the vendor's 401 itself. */
const authorized = (exchange: HttpExchange): string | undefined =>
  authorizedKey(exchange, VENDOR_D_KEY, (check) => sendVendorDError(exchange, vendorDAuthProblem(check)));

/** The vendor's response headers on a successful synthesis. */
function successHeaders(startedAt: number): OutgoingHttpHeaders {
  return {
    'x-request-id': vendorDRequestId(),
    'vendor_d-processing-ms': String(Date.now() - startedAt),
    'x-ratelimit-limit-requests': '5000',
    'x-ratelimit-remaining-requests': '4999',
    'x-ratelimit-reset-requests': '12ms',
  };
}

export function vendorDHttpRoutes(kit: SimKit): HttpRoute[] {
  return [
    {
      method: 'POST',
      path: VENDOR_D_SPEECH_PATH,
      async handle(exchange) {
        const startedAt = Date.now();
        const key = authorized(exchange);
        if (!key) return;
        const parsed = parseVendorDRequest(exchange.json());
        if (!parsed.ok) return sendVendorDError(exchange, parsed.problem);
        const { request } = parsed;
        const sse = vendorDAnswersEvents(request);
        const begun = beginTake(kit, {
          vendor: 'vendor_d',
          endpoint: sse ? 'sse' : 'audio',
          key,
          text: request.input,
          spec: request.spec,
          speed: request.speed,
        });
        const pacing = kit.state.pacing('vendor_d');
        const sendError = (f: FaultSpec): void => sendVendorDError(exchange, vendorDFaultProblem(f));
        if (!sse) {
          await playChunked(exchange, begun, pacing, {
            contentType: VENDOR_D_CONTENT_TYPES[request.spec.codec],
            headers: () => successHeaders(startedAt),
            sendError,
          });
          return;
        }
        await playSse(exchange, begun, pacing, {
          headers: () => successHeaders(startedAt),
          events: (piece) => sseEvent(vendorDDeltaEvent(piece.bytes)),
          errorEvent: (f) => sseEvent(vendorDErrorEvent(vendorDFaultProblem(f))),
          doneEvent: () =>
            sseEvent(vendorDDoneEvent(request.input, begun.take.durationMs)) +
            `data: ${VENDOR_D_STREAM_END}\n\n`,
          sendError,
        });
      },
    },
  ];
}
