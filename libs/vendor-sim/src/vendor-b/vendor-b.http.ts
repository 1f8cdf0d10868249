import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playTake } from '../kit/play-take';
import { checkKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import {
  sendVendorBAuthRefusal,
  sendVendorBError,
  STATUS_TITLES,
  vendorBFaultProblem,
  vendorBRequestId,
} from './vendor-b.errors';
import { parseVendorBRequest, type VendorBRequest } from './vendor-b.settings';
import { VENDOR_B_VOICES } from './vendor-b.voices';

/** The key check every route makes first; answers the gateway's refusal itself. */
function authorized(exchange: HttpExchange): string | undefined {
  const key = exchange.header('x-api-key');
  const check = checkKey(key);
  if (check !== 'ok') {
    sendVendorBAuthRefusal(exchange, check);
    return undefined;
  }
  return key;
}

function accept(exchange: HttpExchange): { key: string; request: VendorBRequest } | undefined {
  const key = authorized(exchange);
  if (!key) return undefined;
  const parsed = parseVendorBRequest(exchange.json());
  if (!parsed.ok) {
    sendVendorBError(exchange, parsed.problem);
    return undefined;
  }
  return { key, request: parsed.request };
}

/** Server compute time for a piece, as the vendor reports it: always a fraction of a millisecond off whole. */
function stepTime(audioMs: number): number {
  return Math.round((audioMs * 0.3 + 5 + Math.random() * 20) * 10) / 10 + 0.05;
}

function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function vendorBHttpRoutes(kit: SimKit): HttpRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/text-to-speech',
      async handle(exchange) {
        const accepted = accept(exchange);
        if (!accepted) return;
        const { request } = accepted;
        const { take, fault } = beginTake(kit, {
          vendor: 'vendor_b',
          endpoint: 'rest',
          key: accepted.key,
          text: request.text,
          spec: request.spec,
          speed: request.speed,
        });
        await playOneShot(
          exchange,
          {
            status: 200,
            contentType: take.contentType,
            body: take.bytes,
            headers: { 'x-request-id': vendorBRequestId() },
          },
          take.durationMs,
          kit.state.pacing('vendor_b'),
          fault,
          (f) => sendVendorBError(exchange, vendorBFaultProblem(f)),
        );
      },
    },
    {
      method: 'POST',
      path: '/v1/text-to-speech/stream',
      async handle(exchange) {
        const accepted = accept(exchange);
        if (!accepted) return;
        const { request } = accepted;
        const { take, fault } = beginTake(kit, {
          vendor: 'vendor_b',
          endpoint: 'sse',
          key: accepted.key,
          text: request.text,
          spec: request.spec,
          speed: request.speed,
        });
        const outcome = await playTake(
          take,
          {
            signal: exchange.signal,
            open: () =>
              exchange.open(200, 'text/event-stream', {
                'x-request-id': vendorBRequestId(),
                connection: 'keep-alive',
              }),
            send: (piece) =>
              exchange.write(
                sseEvent('chunk', {
                  type: 'chunk',
                  data: piece.bytes.toString('base64'),
                  step_time: stepTime(piece.endMs - piece.startMs),
                  done: false,
                  status_code: 200,
                }),
              ),
            fail: async (f, started) => {
              const problem = vendorBFaultProblem(f);
              // Before the first event the vendor still answers with a plain HTTP error.
              if (!started) return sendVendorBError(exchange, problem);
              await exchange.write(
                sseEvent('error', {
                  type: 'error',
                  done: true,
                  status_code: problem.status,
                  title: STATUS_TITLES[problem.status] ?? 'Error',
                  message: problem.message,
                }),
              );
              exchange.end();
            },
            cut: () => exchange.destroy(),
          },
          kit.state.pacing('vendor_b'),
          fault,
        );
        if (outcome !== 'done') return;
        await exchange.write(sseEvent('done', { type: 'done', done: true, status_code: 200 }));
        exchange.end();
      },
    },
    {
      method: 'GET',
      path: '/v1/voices',
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_b', 'voices', key);
        exchange.sendJson(200, { voices: VENDOR_B_VOICES });
      },
    },
  ];
}
