import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playTake } from '../kit/play-take';
import { checkKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import {
  AUTH_PROBLEM,
  sendVendorAError,
  vendorAFaultProblem,
  vendorARequestId,
  type VendorAProblem,
} from './vendor-a.errors';
import {
  hasSpeakableText,
  parseVendorASettings,
  TEXT_LIMITS,
  type VendorASettings,
} from './vendor-a.settings';

interface Accepted {
  key: string;
  text: string;
  settings: VendorASettings;
}

/** Auth, body and settings checks shared by both REST endpoints; answers the refusal itself. */
function accept(exchange: HttpExchange, endpoint: 'rest' | 'stream'): Accepted | undefined {
  const key = exchange.header('api-subscription-key');
  if (checkKey(key) !== 'ok') {
    sendVendorAError(exchange, AUTH_PROBLEM);
    return undefined;
  }
  const body = exchange.json();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    sendVendorAError(exchange, {
      status: 422,
      code: 'unprocessable_entity_error',
      message: 'Request body must be a JSON object',
    });
    return undefined;
  }
  const fields = body as Record<string, unknown>;
  const text = fields['text'];
  const problem = textProblem(text, TEXT_LIMITS[endpoint]);
  if (problem) {
    sendVendorAError(exchange, problem);
    return undefined;
  }
  const parsed = parseVendorASettings(fields, endpoint);
  if (!parsed.ok) {
    sendVendorAError(exchange, parsed.problem);
    return undefined;
  }
  return { key: key as string, text: text as string, settings: parsed.settings };
}

export function textProblem(text: unknown, limit: number): VendorAProblem | undefined {
  if (typeof text !== 'string' || text.length === 0) {
    return { status: 422, code: 'unprocessable_entity_error', message: 'text: Field required' };
  }
  if (text.length > limit) {
    return {
      status: 400,
      code: 'invalid_request_error',
      message: `text must be at most ${limit} characters`,
    };
  }
  if (!hasSpeakableText(text)) {
    return {
      status: 400,
      code: 'invalid_request_error',
      message: 'text must contain at least one letter or digit',
    };
  }
  return undefined;
}

export function vendorAHttpRoutes(kit: SimKit): HttpRoute[] {
  return [
    {
      method: 'POST',
      path: '/text-to-speech',
      async handle(exchange) {
        const accepted = accept(exchange, 'rest');
        if (!accepted) return;
        const { settings } = accepted;
        const { take, fault } = beginTake(kit, {
          vendor: 'vendor_a',
          endpoint: 'rest',
          key: accepted.key,
          text: accepted.text,
          spec: settings.spec,
          speed: settings.pace,
        });
        const body = Buffer.from(
          JSON.stringify({ request_id: vendorARequestId(), audios: [take.bytes.toString('base64')] }),
        );
        await playOneShot(
          exchange,
          { status: 200, contentType: 'application/json', body },
          take.durationMs,
          kit.state.pacing('vendor_a'),
          fault,
          (f) => sendVendorAError(exchange, vendorAFaultProblem(f)),
        );
      },
    },
    {
      method: 'POST',
      path: '/text-to-speech/stream',
      async handle(exchange) {
        const accepted = accept(exchange, 'stream');
        if (!accepted) return;
        const { settings } = accepted;
        const { take, fault } = beginTake(kit, {
          vendor: 'vendor_a',
          endpoint: 'stream',
          key: accepted.key,
          text: accepted.text,
          spec: settings.spec,
          speed: settings.pace,
        });
        const outcome = await playTake(
          take,
          {
            signal: exchange.signal,
            open: () => exchange.open(200, take.contentType, { 'x-request-id': vendorARequestId() }),
            send: (piece) => exchange.write(piece.bytes),
            fail: (f, started) =>
              started ? exchange.destroy() : sendVendorAError(exchange, vendorAFaultProblem(f)),
            cut: () => exchange.destroy(),
          },
          kit.state.pacing('vendor_a'),
          fault,
        );
        if (outcome === 'done') exchange.end();
      },
    },
  ];
}
