import { randomUUID } from 'node:crypto';
import { CONTENT_TYPES } from '../kit/audio/audio-spec';
import { wavHeader } from '../kit/audio/pcm.codec';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playTake } from '../kit/play-take';
import { checkKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import { sendVendorHAuthRefusal, sendVendorHError, vendorHFaultProblem } from './vendor-h.errors';
import { parseVendorHRequest, type VendorHRequest } from './vendor-h.settings';
import { VENDOR_H_CLONED_VOICES, VENDOR_H_MODELS, VENDOR_H_VOICES } from './vendor-h.voices';

/** The bearer key every route checks first; answers the refusal itself. */
function authorized(exchange: HttpExchange): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(exchange.header('authorization') ?? '');
  const key = match?.[1]?.trim();
  if (checkKey(key) !== 'ok') {
    sendVendorHAuthRefusal(exchange);
    return undefined;
  }
  return key;
}

function accept(exchange: HttpExchange): { key: string; request: VendorHRequest } | undefined {
  const key = authorized(exchange);
  if (!key) return undefined;
  const acceptWav = (exchange.header('accept') ?? '').includes('audio/wav');
  const parsed = parseVendorHRequest(exchange.json(), acceptWav);
  if (!parsed.ok) {
    sendVendorHError(exchange, parsed.problem);
    return undefined;
  }
  return { key, request: parsed.request };
}

function sseEvent(data: unknown, name?: string): string {
  return `${name ? `event: ${name}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

export function vendorHHttpRoutes(kit: SimKit): HttpRoute[] {
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
        const { take, fault } = beginTake(kit, {
          vendor: 'vendor_h',
          endpoint: 'rest',
          key: accepted.key,
          text: request.text,
          spec: request.spec,
          speed: request.speed,
        });
        await playOneShot(
          exchange,
          { status: 200, contentType: take.contentType, body: take.bytes, headers },
          take.durationMs,
          kit.state.pacing('vendor_h'),
          fault,
          (f) => sendVendorHError(exchange, vendorHFaultProblem(f)),
        );
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
          await exchange.write(sseEvent({ done: true }));
          exchange.end();
          return;
        }
        const { take, fault } = beginTake(kit, {
          vendor: 'vendor_h',
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
            open: () => exchange.open(200, 'text/event-stream', headers),
            send: (piece) =>
              exchange.write(
                sseEvent({ audio: piece.bytes.toString('base64'), request_id: requestId }, 'audio'),
              ),
            fail: async (f, started) => {
              const problem = vendorHFaultProblem(f);
              // Before the first event the vendor still answers with a plain HTTP error.
              if (!started) return sendVendorHError(exchange, problem);
              await exchange.write(
                sseEvent(
                  {
                    request_id: requestId,
                    status: 'error',
                    error: { message: problem.message, code: problem.status },
                  },
                  'error',
                ),
              );
              exchange.end();
            },
            cut: () => exchange.destroy(),
          },
          kit.state.pacing('vendor_h'),
          fault,
        );
        if (outcome !== 'done') return;
        await exchange.write(sseEvent({ done: true }));
        exchange.end();
      },
    },
    {
      method: 'GET',
      path: '/waves/v1/:model/get_voices',
      handle(exchange) {
        if (!authorized(exchange)) return;
        const model = VENDOR_H_MODELS.find((m) => m === exchange.params['model']);
        if (!model) {
          sendVendorHError(exchange, {
            status: 404,
            message: `model '${exchange.params['model']}' not found`,
          });
          return;
        }
        exchange.sendJson(200, { voices: VENDOR_H_VOICES[model] });
      },
    },
    {
      method: 'GET',
      path: '/waves/v1/voice-cloning',
      handle(exchange) {
        if (!authorized(exchange)) return;
        exchange.sendJson(200, { data: VENDOR_H_CLONED_VOICES });
      },
    },
  ];
}
