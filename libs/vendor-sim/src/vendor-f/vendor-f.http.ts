import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playChunked } from '../kit/http/play-stream';
import { checkKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import { sendVendorFError, VENDOR_F_AUTH_PROBLEM, vendorFFaultProblem } from './vendor-f.errors';
import { parseVendorFSettings, restSettings, VENDOR_F_TEXT_LIMIT } from './vendor-f.settings';
import { vendorFVoicesFor } from './vendor-f.voices';

/** The key from `Authorization: Bearer <key>`, or undefined. */
export function vendorFKey(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
}

function authorized(exchange: HttpExchange): string | undefined {
  const key = vendorFKey(exchange.header('authorization'));
  if (checkKey(key) !== 'ok') {
    sendVendorFError(exchange, VENDOR_F_AUTH_PROBLEM);
    return undefined;
  }
  return key;
}

/** Checks an utterance's text; a message for the vendor's 400, or null. */
export function vendorFTextProblem(text: unknown): string | null {
  if (typeof text !== 'string' || text.trim() === '') return 'text is required';
  if (text.length > VENDOR_F_TEXT_LIMIT) return `text must be at most ${VENDOR_F_TEXT_LIMIT} characters`;
  return null;
}

export function vendorFHttpRoutes(kit: SimKit): HttpRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/tts',
      async handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        const body = exchange.json();
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          return sendVendorFError(exchange, { status: 400, message: 'request body must be a JSON object' });
        }
        const fields = body as Record<string, unknown>;
        const textProblem = vendorFTextProblem(fields['text']);
        if (textProblem) return sendVendorFError(exchange, { status: 400, message: textProblem });
        const raw = restSettings(fields);
        if (typeof raw === 'string') return sendVendorFError(exchange, { status: 400, message: raw });
        const parsed = parseVendorFSettings(raw, key);
        if (!parsed.ok) return sendVendorFError(exchange, parsed.problem);
        const { settings } = parsed;
        const begun = beginTake(kit, {
          vendor: 'vendor_f',
          endpoint: 'rest',
          key,
          text: fields['text'] as string,
          spec: settings.spec,
          speed: settings.speed,
        });
        await playChunked(exchange, begun, kit.state.pacing('vendor_f'), {
          sendError: (f) => sendVendorFError(exchange, vendorFFaultProblem(f)),
        });
      },
    },
    {
      method: 'GET',
      path: '/v1/tts/voices',
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_f', 'voices', key);
        exchange.sendJson(200, { voices: vendorFVoicesFor(key) });
      },
    },
  ];
}
