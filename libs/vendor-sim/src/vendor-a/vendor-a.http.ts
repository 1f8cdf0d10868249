import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playChunked } from '../kit/http/play-stream';
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
        const begun = beginTake(kit, {
          vendor: 'vendor_a',
          endpoint: 'rest',
          key: accepted.key,
          text: accepted.text,
          spec: settings.spec,
          speed: settings.pace,
        });
        const body = Buffer.from(
          JSON.stringify({ request_id: vendorARequestId(), audios: [begun.take.bytes.toString('base64')] }),
        );
        await playOneShot(exchange, begun, kit.state.pacing('vendor_a'), {
          contentType: 'application/json',
          body,
          sendError: (f) => sendVendorAError(exchange, vendorAFaultProblem(f)),
        });
      },
    },
    {
      method: 'POST',
      path: '/text-to-speech/stream',
      async handle(exchange) {
        const accepted = accept(exchange, 'stream');
        if (!accepted) return;
        const { settings } = accepted;
        const begun = beginTake(kit, {
          vendor: 'vendor_a',
          endpoint: 'stream',
          key: accepted.key,
          text: accepted.text,
          spec: settings.spec,
          speed: settings.pace,
        });
        await playChunked(exchange, begun, kit.state.pacing('vendor_a'), {
          headers: () => ({ 'x-request-id': vendorARequestId() }),
          sendError: (f) => sendVendorAError(exchange, vendorAFaultProblem(f)),
        });
      },
    },
  ];
}
