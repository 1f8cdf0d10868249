import type { OutgoingHttpHeaders } from 'node:http';
import type { Take } from '../kit/audio/take';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playChunked, playSse, sseEvent } from '../kit/http/play-stream';
import { checkKey } from '../kit/sim-keys';
import type { FaultSpec } from '../kit/faults';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import {
  sendVendorDError,
  vendorDAuthProblem,
  vendorDErrorBody,
  vendorDFaultProblem,
  vendorDRequestId,
} from './vendor-d.errors';
import { parseVendorDRequest, VENDOR_D_CONTENT_TYPES, type VendorDRequest } from './vendor-d.settings';

/** The key from `Authorization: Bearer <key>`; answers the vendor's 401 itself. */
function authorized(exchange: HttpExchange): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(exchange.header('authorization') ?? '');
  const key = match?.[1]?.trim();
  const check = checkKey(key);
  if (check !== 'ok') {
    sendVendorDError(exchange, vendorDAuthProblem(check));
    return undefined;
  }
  return key;
}

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

/** Token counts the vendor reports at the end of an SSE take: text tokens in, audio tokens out. */
function usage(request: VendorDRequest, take: Take): Record<string, number> {
  const input = Math.max(1, Math.ceil(request.input.length / 4));
  const output = Math.max(1, Math.round(take.durationMs / 20));
  return { input_tokens: input, output_tokens: output, total_tokens: input + output };
}

export function vendorDHttpRoutes(kit: SimKit): HttpRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/audio/speech',
      async handle(exchange) {
        const startedAt = Date.now();
        const key = authorized(exchange);
        if (!key) return;
        const parsed = parseVendorDRequest(exchange.json());
        if (!parsed.ok) return sendVendorDError(exchange, parsed.problem);
        const { request } = parsed;
        const sse = request.streamFormat === 'sse';
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
            contentType: VENDOR_D_CONTENT_TYPES[request.spec.codec] ?? begun.take.contentType,
            headers: () => successHeaders(startedAt),
            sendError,
          });
          return;
        }
        await playSse(exchange, begun, pacing, {
          headers: () => successHeaders(startedAt),
          events: (piece) => sseEvent({ type: 'speech.audio.delta', audio: piece.bytes.toString('base64') }),
          errorEvent: (f) => sseEvent({ type: 'error', ...vendorDErrorBody(vendorDFaultProblem(f)) }),
          doneEvent: () => sseEvent({ type: 'speech.audio.done', usage: usage(request, begun.take) }),
          sendError,
        });
      },
    },
  ];
}
