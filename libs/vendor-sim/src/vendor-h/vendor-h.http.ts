import { randomUUID } from 'node:crypto';
import { CONTENT_TYPES } from '../kit/audio/audio-spec';
import { wavHeader } from '../kit/audio/pcm.codec';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playSse, sseEvent } from '../kit/http/play-stream';
import { acceptParsed, type AcceptedRequest, authorizedKey } from '../kit/sim-keys';
import { beginTake, type BegunTake, type SimKit } from '../kit/sim-vendor';
import {
  parseVendorHRequest,
  VENDOR_H_DONE_EVENT,
  VENDOR_H_MODELS,
  vendorHAudioEvent,
  vendorHErrorEvent,
  type VendorHRequest,
  type VendorHSseEvent,
  VENDOR_H_KEY,
} from '@router/vendor-h';
import { sendVendorHAuthRefusal, sendVendorHError, vendorHFaultProblem } from './vendor-h.errors';
import { isVendorHVoice, VENDOR_H_CLONED_VOICES, VENDOR_H_VOICES } from './vendor-h.voices';

function sse({ event, data }: VendorHSseEvent): string {
  return sseEvent(data, event);
}

/** The key every route checks first (`VENDOR_H_KEY`); answers the refusal itself. */
const authorized = (exchange: HttpExchange): string | undefined =>
  authorizedKey(exchange, VENDOR_H_KEY, () => sendVendorHAuthRefusal(exchange));

function accept(exchange: HttpExchange): AcceptedRequest<VendorHRequest> | undefined {
  return acceptParsed(
    authorized(exchange),
    () =>
      parseVendorHRequest(exchange.json(), { accept: exchange.header('accept'), isVoice: isVendorHVoice }),
    (problem) => sendVendorHError(exchange, problem),
  );
}

export function vendorHHttpRoutes(kit: SimKit): HttpRoute[] {
  // The parsed request holds the take's text, audio spec and speed as they are.
  const begin = (accepted: AcceptedRequest<VendorHRequest>, endpoint: string): BegunTake =>
    beginTake(kit, { ...accepted.request, vendor: 'vendor_h', endpoint, key: accepted.key });
  return [
    {
      method: 'POST',
      path: '/waves/v1/tts',
      async handle(exchange) {
        const accepted = accept(exchange);
        if (!accepted) return;
        const { request } = accepted;
        const headers = { ...request.echo, 'x-request-id': randomUUID() };
        if (request.silent) {
          // Nothing to speak: a clip without samples, and no take (nothing was synthesized).
          const empty =
            request.spec.codec === 'wav' ? wavHeader(request.spec.sampleRate, 0) : Buffer.alloc(0);
          exchange.send(200, CONTENT_TYPES[request.spec.codec], empty, headers);
          return;
        }
        await playOneShot(exchange, begin(accepted, 'rest'), kit.state.pacing('vendor_h'), {
          headers,
          sendError: (f) => sendVendorHError(exchange, vendorHFaultProblem(f)),
        });
      },
    },
    {
      method: 'POST',
      path: '/waves/v1/tts/live',
      async handle(exchange) {
        const accepted = accept(exchange);
        if (!accepted) return;
        const { request } = accepted;
        const requestId = randomUUID();
        const headers = { ...request.echo, 'x-request-id': requestId, connection: 'keep-alive' };
        if (request.silent) {
          exchange.open(200, 'text/event-stream', headers);
          await exchange.write(sse(VENDOR_H_DONE_EVENT));
          exchange.end();
          return;
        }
        await playSse(exchange, begin(accepted, 'sse'), kit.state.pacing('vendor_h'), {
          headers,
          events: (piece) => sse(vendorHAudioEvent(requestId, piece.bytes)),
          errorEvent: (f) => sse(vendorHErrorEvent(requestId, vendorHFaultProblem(f))),
          doneEvent: () => sse(VENDOR_H_DONE_EVENT),
          sendError: (f) => sendVendorHError(exchange, vendorHFaultProblem(f)),
        });
      },
    },
    {
      method: 'GET',
      path: '/waves/v1/:model/get_voices',
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        const model = VENDOR_H_MODELS.find((m) => m === exchange.params['model']);
        if (!model) {
          sendVendorHError(exchange, {
            status: 404,
            message: `model '${exchange.params['model']}' not found`,
          });
          return;
        }
        kit.state.recordRead('vendor_h', 'voices', key);
        exchange.sendJson(200, { voices: VENDOR_H_VOICES[model] });
      },
    },
    {
      method: 'GET',
      path: '/waves/v1/voice-cloning',
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_h', 'voice-cloning', key);
        exchange.sendJson(200, { data: VENDOR_H_CLONED_VOICES });
      },
    },
  ];
}
