import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playChunked } from '../kit/http/play-stream';
import { authorizedKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import {
  parseVendorFSettings,
  restSettings,
  VENDOR_F_AUTH_PROBLEM,
  VENDOR_F_TTS_PATH,
  VENDOR_F_KEY,
  vendorFTextProblem,
  vendorFVoiceList,
} from '@router/vendor-f';
import { sendVendorFError, vendorFFaultProblem } from './vendor-f.errors';
import { findVendorFVoice, vendorFVoicesFor } from './vendor-f.voices';

const authorized = (exchange: HttpExchange): string | undefined =>
  authorizedKey(exchange, VENDOR_F_KEY, () => sendVendorFError(exchange, VENDOR_F_AUTH_PROBLEM));

export function vendorFHttpRoutes(kit: SimKit): HttpRoute[] {
  return [
    {
      method: 'POST',
      path: VENDOR_F_TTS_PATH,
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
        const parsed = parseVendorFSettings(raw, (id) => findVendorFVoice(key, id));
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
        exchange.sendJson(200, vendorFVoiceList(vendorFVoicesFor(key)));
      },
    },
  ];
}
