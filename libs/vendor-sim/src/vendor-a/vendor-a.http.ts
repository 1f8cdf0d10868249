import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playChunked } from '../kit/http/play-stream';
import { authorizedKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import {
  parseVendorASettings,
  TEXT_LIMITS,
  VENDOR_A_AUTH_PROBLEM,
  VENDOR_A_KEY,
  vendorAOneShotBody,
  vendorARequestId,
  vendorATextProblem,
  VENDOR_A_UNKNOWN_DICTIONARY,
  VENDOR_A_WARNING_HEADER,
  vendorAWarningHeader,
  type VendorASettings,
} from '@router/vendor-a';
import { isUnknownDictId } from './vendor-a.dictionaries';
import { sendVendorAError, vendorAFaultProblem } from './vendor-a.errors';

interface Accepted {
  key: string;
  text: string;
  settings: VendorASettings;
}

/** Auth, body and settings checks shared by both REST endpoints; answers the refusal itself. */
function accept(exchange: HttpExchange, endpoint: 'rest' | 'stream'): Accepted | undefined {
  const key = authorizedKey(exchange, VENDOR_A_KEY, () => sendVendorAError(exchange, VENDOR_A_AUTH_PROBLEM));
  if (!key) return undefined;
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
  const problem = vendorATextProblem(text, TEXT_LIMITS[endpoint]);
  if (problem) {
    sendVendorAError(exchange, problem);
    return undefined;
  }
  const parsed = parseVendorASettings(fields, endpoint);
  if (!parsed.ok) {
    sendVendorAError(exchange, parsed.problem);
    return undefined;
  }
  return { key, text: text as string, settings: parsed.settings };
}

/**
 * A `dict_id` the account has no dictionary of is reported in a header, and the text spoken without one (as
 * the socket reports it in an `error` message and still speaks).
 */
function warningHeaders(settings: VendorASettings): Record<string, string> {
  return settings.dictId !== undefined && isUnknownDictId(settings.dictId)
    ? { [VENDOR_A_WARNING_HEADER]: vendorAWarningHeader(VENDOR_A_UNKNOWN_DICTIONARY) }
    : {};
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
        const body = Buffer.from(vendorAOneShotBody(vendorARequestId(), begun.take.bytes));
        await playOneShot(exchange, begun, kit.state.pacing('vendor_a'), {
          contentType: 'application/json',
          headers: warningHeaders(settings),
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
          headers: () => ({ 'x-request-id': vendorARequestId(), ...warningHeaders(settings) }),
          sendError: (f) => sendVendorAError(exchange, vendorAFaultProblem(f)),
        });
      },
    },
  ];
}
