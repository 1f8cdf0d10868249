import { randomUUID } from 'node:crypto';
import type { Take, TakePiece } from '../kit/audio/take';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playSse, sseEvent } from '../kit/http/play-stream';
import { acceptParsed, type AcceptedRequest, authorizedKey } from '../kit/sim-keys';
import { beginTake, type BegunTake, type SimKit } from '../kit/sim-vendor';
import {
  isKnownVendorIVersion,
  parseVendorIRequest,
  vendorIChunkEvent,
  vendorIDoneEvent,
  vendorIErrorEvent,
  vendorITimestampsEvent,
  vendorIVersionProblem,
  type VendorIEvent,
  type VendorIRequest,
  type VendorIWordSpan,
  VENDOR_I_KEY,
} from '@router/vendor-i';
import {
  requestedVersion,
  sendVendorIAuthRefusal,
  sendVendorIError,
  vendorIFaultProblem,
} from './vendor-i.errors';
import { findVendorIVoice, VENDOR_I_VOICES } from './vendor-i.voices';

export const isVendorIVoice = (id: string): boolean => findVendorIVoice(id) !== undefined;

/** Key first (`VENDOR_I_KEY`; a 401 in the version's error shape), then the version every route requires. */
function authorized(exchange: HttpExchange): string | undefined {
  const key = authorizedKey(exchange, VENDOR_I_KEY, (check) => sendVendorIAuthRefusal(exchange, check));
  if (!key) return undefined;
  const version = requestedVersion(exchange);
  if (!isKnownVendorIVersion(version)) {
    sendVendorIError(exchange, vendorIVersionProblem(version));
    return undefined;
  }
  return key;
}

function accept(exchange: HttpExchange, streaming: boolean): AcceptedRequest<VendorIRequest> | undefined {
  return acceptParsed(
    authorized(exchange),
    () => parseVendorIRequest(exchange.json(), streaming, isVendorIVoice),
    (problem) => sendVendorIError(exchange, problem),
  );
}

function stepTime(audioMs: number): number {
  return Math.round((audioMs * 0.25 + 8 + Math.random() * 20) * 10) / 10 + 0.05;
}

/** The vendor's events carry their name in the data too. */
function sse(event: VendorIEvent): string {
  return sseEvent(event, event.type);
}

type WordSpan = VendorIWordSpan;

/** The take's whitespace-separated words with the times of their first and last characters. */
export function takeWords(take: Take): WordSpan[] {
  const words: WordSpan[] = [];
  let current: { chars: string[]; startMs: number; endMs: number } | undefined;
  for (const c of take.characters) {
    if (/\s/u.test(c.char)) {
      if (current)
        words.push({ word: current.chars.join(''), startMs: current.startMs, endMs: current.endMs });
      current = undefined;
    } else if (current) {
      current.chars.push(c.char);
      current.endMs = c.endMs;
    } else current = { chars: [c.char], startMs: c.startMs, endMs: c.endMs };
  }
  if (current) words.push({ word: current.chars.join(''), startMs: current.startMs, endMs: current.endMs });
  return words;
}

/** The words whose speech starts within this piece (the last piece takes any left). */
export function wordsInPiece(words: readonly WordSpan[], piece: TakePiece): WordSpan[] {
  return words.filter((w) => w.startMs >= piece.startMs && (piece.last || w.startMs < piece.endMs));
}

export function vendorIHttpRoutes(kit: SimKit): HttpRoute[] {
  // The parsed request holds the take's text, audio spec and speed as they are.
  const begin = (accepted: AcceptedRequest<VendorIRequest>, endpoint: string): BegunTake =>
    beginTake(kit, { ...accepted.request, vendor: 'vendor_i', endpoint, key: accepted.key });
  return [
    {
      method: 'POST',
      path: '/tts/bytes',
      async handle(exchange) {
        const accepted = accept(exchange, false);
        if (!accepted) return;
        await playOneShot(exchange, begin(accepted, 'bytes'), kit.state.pacing('vendor_i'), {
          headers: { 'x-request-id': randomUUID() },
          sendError: (f) => sendVendorIError(exchange, vendorIFaultProblem(f)),
        });
      },
    },
    {
      method: 'POST',
      path: '/tts/sse',
      async handle(exchange) {
        const accepted = accept(exchange, true);
        if (!accepted) return;
        const { request } = accepted;
        const begun = begin(accepted, 'sse');
        const context = request.contextId !== undefined ? { context_id: request.contextId } : {};
        const words = request.timestamps ? takeWords(begun.take) : [];
        const requestId = randomUUID();
        await playSse(exchange, begun, kit.state.pacing('vendor_i'), {
          headers: () => ({ 'x-request-id': requestId, connection: 'keep-alive' }),
          events: (piece) => {
            const chunk = sse(vendorIChunkEvent(piece.bytes, stepTime(piece.endMs - piece.startMs), context));
            const spoken = wordsInPiece(words, piece);
            if (spoken.length === 0) return chunk;
            return [chunk, sse(vendorITimestampsEvent(spoken, 0, context))];
          },
          errorEvent: (f) => sse(vendorIErrorEvent(vendorIFaultProblem(f), requestId, context)),
          doneEvent: () => sse(vendorIDoneEvent(context)),
          sendError: (f) => sendVendorIError(exchange, vendorIFaultProblem(f)),
        });
      },
    },
    {
      method: 'GET',
      path: '/voices',
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_i', 'voices', key);
        const q = exchange.query;
        const limitText = q.get('limit') ?? '10';
        const limit = Number(limitText);
        if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
          return sendVendorIError(exchange, {
            status: 400,
            title: 'Invalid limit',
            message: 'limit must be an integer from 1 to 100',
            errorCode: 'invalid_request',
          });
        }
        const search = q.get('q')?.toLowerCase();
        const gender = q.get('gender');
        const matching = VENDOR_I_VOICES.filter(
          (v) =>
            (!search ||
              v.name.toLowerCase().includes(search) ||
              v.description.toLowerCase().includes(search)) &&
            (!gender || v.gender === gender) &&
            (q.get('is_owner') !== 'true' || v.is_owner),
        );
        const after = q.get('starting_after');
        const before = q.get('ending_before');
        const cursor = after ?? before;
        const at = cursor !== null ? matching.findIndex((v) => v.id === cursor) : -1;
        if (cursor !== null && at === -1) {
          return sendVendorIError(exchange, {
            status: 400,
            title: 'Invalid cursor',
            message: `No voice ${cursor} to page from`,
            errorCode: 'invalid_request',
          });
        }
        const [from, to] =
          after !== null
            ? [at + 1, at + 1 + limit]
            : before !== null
              ? [Math.max(0, at - limit), at]
              : [0, limit];
        const hasMore = before !== null ? from > 0 : to < matching.length;
        exchange.sendJson(200, { data: matching.slice(from, to), has_more: hasMore });
      },
    },
    {
      method: 'GET',
      path: '/voices/:id',
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_i', 'voice', key);
        const voice = findVendorIVoice(exchange.params['id'] ?? '');
        if (voice) return exchange.sendJson(200, voice);
        sendVendorIError(exchange, {
          status: 404,
          title: 'Voice not found',
          message: `Voice ${exchange.params['id'] ?? ''} was not found`,
          errorCode: 'voice_not_found',
        });
      },
    },
  ];
}
