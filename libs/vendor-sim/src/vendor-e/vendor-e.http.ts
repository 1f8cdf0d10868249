import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playChunked } from '../kit/http/play-stream';
import { acceptParsed, authorizedKey, requestKey } from '../kit/sim-keys';
import { beginTake, type BegunTake, type SimKit } from '../kit/sim-vendor';
import {
  parseVendorESpeak,
  VENDOR_E_AUTH_PROBLEM,
  VENDOR_E_CALLBACK_STATUS,
  vendorECallbackAccepted,
  VENDOR_E_KEY,
  vendorEModelList,
  vendorERequestId,
  vendorESpeakHeaders,
  type VendorEGeneration,
  type VendorESpeakRequest,
} from '@router/vendor-e';
import { sendVendorEError, vendorEFaultProblem } from './vendor-e.errors';
import { findVendorEModel, vendorEModelsOf } from './vendor-e.models';

const authorized = (exchange: HttpExchange): string | undefined =>
  authorizedKey(exchange, VENDOR_E_KEY, () => sendVendorEError(exchange, VENDOR_E_AUTH_PROBLEM));

function speakHeaders(request: VendorESpeakRequest): Record<string, string> {
  return vendorESpeakHeaders(request, vendorERequestId());
}

function accept(
  exchange: HttpExchange,
  generation: VendorEGeneration,
): { key: string; request: VendorESpeakRequest } | undefined {
  return acceptParsed(
    authorized(exchange),
    () => parseVendorESpeak(generation, exchange.query, exchange.json(), findVendorEModel),
    (problem) => sendVendorEError(exchange, problem),
  );
}

export function vendorEHttpRoutes(kit: SimKit): HttpRoute[] {
  const start = (key: string, request: VendorESpeakRequest, endpoint: string): BegunTake =>
    beginTake(kit, { ...request, vendor: 'vendor_e', endpoint, key });
  return [
    {
      // First generation: the audio streams (chunked) as it is made.
      method: 'POST',
      path: '/v1/speak',
      async handle(exchange) {
        const accepted = accept(exchange, 'v1');
        if (!accepted) return;
        const { request } = accepted;
        await playChunked(exchange, start(accepted.key, request, 'rest'), kit.state.pacing('vendor_e'), {
          headers: () => speakHeaders(request),
          sendError: (f) => sendVendorEError(exchange, vendorEFaultProblem(f)),
        });
      },
    },
    {
      // Second generation over REST is a batch call: the whole take in one body.
      method: 'POST',
      path: '/v2/speak',
      async handle(exchange) {
        const accepted = accept(exchange, 'v2');
        if (!accepted) return;
        const { request } = accepted;
        const take = start(accepted.key, request, 'rest-v2');
        if (request.callback !== undefined) {
          answerCallback(exchange, take);
          return;
        }
        await playOneShot(exchange, take, kit.state.pacing('vendor_e'), {
          headers: speakHeaders(request),
          sendError: (f) => sendVendorEError(exchange, vendorEFaultProblem(f)),
        });
      },
    },
    // The model lists are public: no key is checked.
    { method: 'GET', path: '/v1/models', handle: (exchange) => listModels(kit, exchange, 'v1') },
    { method: 'GET', path: '/v2/models', handle: (exchange) => listModels(kit, exchange, 'v2') },
  ];
}

/**
 * A call with a `callback`: the vendor accepts it at once (`202 {request_id}`); an injected error is its
 * refusal instead. The simulator delivers nothing to the client's address (see the README).
 */
function answerCallback(exchange: HttpExchange, { fault }: BegunTake): void {
  if (fault?.kind === 'error') {
    sendVendorEError(exchange, vendorEFaultProblem(fault));
    return;
  }
  exchange.sendJson(VENDOR_E_CALLBACK_STATUS, vendorECallbackAccepted(vendorERequestId()));
}

function listModels(kit: SimKit, exchange: HttpExchange, generation: VendorEGeneration): void {
  kit.state.recordRead('vendor_e', 'models', requestKey(VENDOR_E_KEY, exchange));
  exchange.sendJson(200, vendorEModelList(vendorEModelsOf(generation)));
}
