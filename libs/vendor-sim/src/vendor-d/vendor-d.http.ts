import type { OutgoingHttpHeaders } from 'node:http';
import type { Take } from '../kit/audio/take';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playTake, type StreamTarget } from '../kit/play-take';
import { checkKey } from '../kit/sim-keys';
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

function sseData(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
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
        const { take, fault } = beginTake(kit, {
          vendor: 'vendor_d',
          endpoint: sse ? 'sse' : 'audio',
          key,
          text: request.input,
          spec: request.spec,
          speed: request.speed,
        });
        const base = {
          signal: exchange.signal,
          cut: () => exchange.destroy(),
        };
        const target: StreamTarget = sse
          ? {
              ...base,
              open: () => exchange.open(200, 'text/event-stream', successHeaders(startedAt)),
              send: (piece) =>
                exchange.write(
                  sseData({ type: 'speech.audio.delta', audio: piece.bytes.toString('base64') }),
                ),
              fail: async (f, started) => {
                const problem = vendorDFaultProblem(f);
                if (!started) return sendVendorDError(exchange, problem);
                // After the first event only the stream itself can carry the failure.
                await exchange.write(sseData({ type: 'error', ...vendorDErrorBody(problem) }));
                exchange.end();
              },
            }
          : {
              ...base,
              open: () =>
                exchange.open(200, VENDOR_D_CONTENT_TYPES[request.spec.codec] ?? take.contentType, {
                  ...successHeaders(startedAt),
                }),
              send: (piece) => exchange.write(piece.bytes),
              // Raw audio has no way to carry an error once it started: the vendor drops the connection.
              fail: (f, started) =>
                started ? exchange.destroy() : sendVendorDError(exchange, vendorDFaultProblem(f)),
            };
        const outcome = await playTake(take, target, kit.state.pacing('vendor_d'), fault);
        if (outcome !== 'done') return;
        if (sse) await exchange.write(sseData({ type: 'speech.audio.done', usage: usage(request, take) }));
        exchange.end();
      },
    },
  ];
}
