import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playSse, sseEvent } from '../kit/http/play-stream';
import { acceptParsed, type AcceptedRequest, authorizedKey } from '../kit/sim-keys';
import { beginTake, type BegunTake, type SimKit } from '../kit/sim-vendor';
import {
  parseVendorBRequest,
  VENDOR_B_DONE_EVENT,
  vendorBChunkEvent,
  vendorBErrorEvent,
  vendorBRequestId,
  vendorBVoiceList,
  type VendorBRequest,
  type VendorBSseEvent,
  VENDOR_B_KEY,
  VENDOR_B_SPEECH_PATH,
  VENDOR_B_STREAM_PATH,
  VENDOR_B_VOICES_PATH,
} from '@router/vendor-b';
import { sendVendorBAuthRefusal, sendVendorBError, vendorBFaultProblem } from './vendor-b.errors';
import { findVendorBVoice, VENDOR_B_VOICES } from './vendor-b.voices';

function sse({ event, data }: VendorBSseEvent): string {
  return sseEvent(data, event);
}

/** The key check every route makes first; answers the gateway's refusal itself. */
const authorized = (exchange: HttpExchange): string | undefined =>
  authorizedKey(exchange, VENDOR_B_KEY, (check) => sendVendorBAuthRefusal(exchange, check));

function accept(exchange: HttpExchange): AcceptedRequest<VendorBRequest> | undefined {
  return acceptParsed(
    authorized(exchange),
    () => parseVendorBRequest(exchange.json(), findVendorBVoice),
    (problem) => sendVendorBError(exchange, problem),
  );
}

/** Server compute time for a piece, as the vendor reports it: always a fraction of a millisecond off whole. */
function stepTime(audioMs: number): number {
  return Math.round((audioMs * 0.3 + 5 + Math.random() * 20) * 10) / 10 + 0.05;
}

export function vendorBHttpRoutes(kit: SimKit): HttpRoute[] {
  // The parsed request holds the take's text, audio spec and speed as they are.
  const begin = (accepted: AcceptedRequest<VendorBRequest>, endpoint: string): BegunTake =>
    beginTake(kit, { ...accepted.request, vendor: 'vendor_b', endpoint, key: accepted.key });
  return [
    {
      method: 'POST',
      path: VENDOR_B_SPEECH_PATH,
      async handle(exchange) {
        const accepted = accept(exchange);
        if (!accepted) return;
        await playOneShot(exchange, begin(accepted, 'rest'), kit.state.pacing('vendor_b'), {
          headers: { 'x-request-id': vendorBRequestId() },
          sendError: (f) => sendVendorBError(exchange, vendorBFaultProblem(f)),
        });
      },
    },
    {
      method: 'POST',
      path: VENDOR_B_STREAM_PATH,
      async handle(exchange) {
        const accepted = accept(exchange);
        if (!accepted) return;
        await playSse(exchange, begin(accepted, 'sse'), kit.state.pacing('vendor_b'), {
          headers: () => ({ 'x-request-id': vendorBRequestId(), connection: 'keep-alive' }),
          events: (piece) => sse(vendorBChunkEvent(piece.bytes, stepTime(piece.endMs - piece.startMs))),
          errorEvent: (f) => sse(vendorBErrorEvent(vendorBFaultProblem(f))),
          doneEvent: () => sse(VENDOR_B_DONE_EVENT),
          sendError: (f) => sendVendorBError(exchange, vendorBFaultProblem(f)),
        });
      },
    },
    {
      method: 'GET',
      path: VENDOR_B_VOICES_PATH,
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_b', 'voices', key);
        exchange.sendJson(200, vendorBVoiceList(VENDOR_B_VOICES));
      },
    },
  ];
}
