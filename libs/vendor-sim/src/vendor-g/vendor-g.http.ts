import type { HttpExchange } from '../kit/http/http-exchange';
import { endEarly } from '../kit/http/play-stream';
import type { HttpRoute } from '../kit/http/http-route';
import { playTake } from '../kit/play-take';
import { authorizedKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import {
  invalidRequest,
  parseVendorGRest,
  VENDOR_G_AUTH_PROBLEM,
  VENDOR_G_ERROR_TRAILERS,
  VENDOR_G_TTS_PATH,
  vendorGContentType,
  vendorGErrorTrailers,
  VENDOR_G_KEY,
} from '@router/vendor-g';
import { clonedVoicePage, ttsModels, VENDOR_G_CLONED_VOICES, VENDOR_G_PROJECT } from './vendor-g.catalogue';
import { vendorGTake } from './vendor-g.audio';
import { sendVendorGError, vendorGFaultProblem } from './vendor-g.errors';

const MAX_PAGE = 100;
const DEFAULT_PAGE = 10;

/** The bearer key (an API key or a temporary key) every REST route checks first. */
const authorized = (exchange: HttpExchange): string | undefined =>
  authorizedKey(exchange, VENDOR_G_KEY, () => sendVendorGError(exchange, VENDOR_G_AUTH_PROBLEM));

/** Both of the vendor's hosts, mounted side by side: their paths do not overlap. */
export function vendorGHttpRoutes(kit: SimKit): HttpRoute[] {
  return [
    {
      method: 'POST',
      path: VENDOR_G_TTS_PATH,
      async handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        const parsed = parseVendorGRest(exchange.json(), VENDOR_G_PROJECT);
        if (!parsed.ok) {
          sendVendorGError(exchange, parsed.problem);
          return;
        }
        const { text, settings } = parsed.value;
        const begun = beginTake(kit, {
          vendor: 'vendor_g',
          endpoint: 'rest',
          key,
          text,
          spec: settings.spec,
          speed: settings.speed,
        });
        const take = vendorGTake(begun.take, settings.spec.samples);
        // The audio streams as it is made. An error after the first byte ends the body cleanly and is
        // reported in HTTP trailers, as at the vendor (which fetch clients cannot read).
        await playTake(
          take,
          {
            signal: exchange.signal,
            open: () =>
              exchange.open(200, vendorGContentType(settings.audioFormat), {
                trailer: VENDOR_G_ERROR_TRAILERS.join(', '),
              }),
            send: (piece) => exchange.write(piece.bytes),
            fail: (f, started) => {
              const problem = vendorGFaultProblem(f);
              if (!started) return sendVendorGError(exchange, problem);
              exchange.endWithTrailers(vendorGErrorTrailers(problem));
            },
            cut: () => exchange.destroy(),
            // Ended early: the body stops inside the piece the fault fell in, as a whole one ends.
            end: (partial, garbage) => endEarly(exchange, partial ? [partial.bytes] : [], garbage),
          },
          kit.state.pacing('vendor_g'),
          begun.fault,
        ).then((outcome) => {
          if (outcome === 'done') exchange.end();
        });
      },
    },
    {
      method: 'GET',
      path: '/v1/tts-models',
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_g', 'models', key);
        exchange.sendJson(200, ttsModels());
      },
    },
    {
      method: 'GET',
      path: '/v1/voices',
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        const rawLimit = exchange.query.get('limit');
        const limit = rawLimit === null ? DEFAULT_PAGE : Number(rawLimit);
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
          sendVendorGError(exchange, invalidRequest(`limit must be between 1 and ${MAX_PAGE}`, 'limit'));
          return;
        }
        const page = clonedVoicePage(limit, exchange.query.get('cursor'));
        if (!page) {
          sendVendorGError(exchange, invalidRequest('Invalid cursor', 'cursor'));
          return;
        }
        kit.state.recordRead('vendor_g', 'voices', key);
        exchange.sendJson(200, page);
      },
    },
    {
      method: 'GET',
      path: '/v1/voices/count',
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_g', 'voices', key);
        exchange.sendJson(200, { count: VENDOR_G_CLONED_VOICES.length });
      },
    },
    {
      method: 'GET',
      path: '/v1/voices/:voice_id',
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        const voice = VENDOR_G_CLONED_VOICES.find((v) => v.id === exchange.params['voice_id']);
        if (!voice) {
          sendVendorGError(exchange, { status: 404, errorType: 'not_found', message: 'Voice not found' });
          return;
        }
        kit.state.recordRead('vendor_g', 'voices', key);
        exchange.sendJson(200, voice);
      },
    },
  ];
}
