import { randomUUID } from 'node:crypto';
import type { Take, TakePiece } from '../kit/audio/take';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { playSse, sseEvent } from '../kit/http/play-stream';
import { checkKey } from '../kit/sim-keys';
import { beginTake, type BegunTake, type SimKit } from '../kit/sim-vendor';
import {
  isKnownVersion,
  requestedVersion,
  sendVendorIAuthRefusal,
  sendVendorIError,
  vendorIFaultProblem,
} from './vendor-i.errors';
import { parseVendorIRequest, type VendorIRequest } from './vendor-i.request';
import { findVendorIVoice, VENDOR_I_VOICES } from './vendor-i.voices';

/** The bearer token (current clients) or `X-API-Key` (older ones). */
function keyOf(exchange: HttpExchange): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(exchange.header('authorization') ?? '')?.[1];
  return bearer ?? exchange.header('x-api-key');
}

/** Key first (a 401 in the version's error shape), then the version every route requires. */
function authorized(exchange: HttpExchange): string | undefined {
  const key = keyOf(exchange);
  const check = checkKey(key);
  if (check !== 'ok') {
    sendVendorIAuthRefusal(exchange, check);
    return undefined;
  }
  const version = requestedVersion(exchange);
  if (!isKnownVersion(version)) {
    sendVendorIError(exchange, {
      status: 400,
      title: 'Invalid version',
      message:
        version === undefined
          ? 'The vendor_i-Version header is required'
          : `vendor_i-Version ${version} is not a supported API version`,
      errorCode: 'invalid_version',
    });
    return undefined;
  }
  return key;
}

interface Accepted {
  readonly key: string;
  readonly request: VendorIRequest;
}

function accept(exchange: HttpExchange, streaming: boolean): Accepted | undefined {
  const key = authorized(exchange);
  if (!key) return undefined;
  const parsed = parseVendorIRequest(exchange.json(), streaming);
  if (!parsed.ok) {
    sendVendorIError(exchange, parsed.problem);
    return undefined;
  }
  return { key, request: parsed.request };
}

function stepTime(audioMs: number): number {
  return Math.round((audioMs * 0.25 + 8 + Math.random() * 20) * 10) / 10 + 0.05;
}

/** The vendor's events carry their name in the data too. */
function typedEvent(type: string, data: Record<string, unknown>): string {
  return sseEvent({ type, ...data }, type);
}

interface WordSpan {
  readonly word: string;
  readonly startMs: number;
  readonly endMs: number;
}

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
function wordsInPiece(words: readonly WordSpan[], piece: TakePiece): WordSpan[] {
  return words.filter((w) => w.startMs >= piece.startMs && (piece.last || w.startMs < piece.endMs));
}

const seconds = (ms: number): number => Math.round(ms) / 1000;

export function vendorIHttpRoutes(kit: SimKit): HttpRoute[] {
  // The parsed request holds the take's text, audio spec and speed as they are.
  const begin = (accepted: Accepted, endpoint: string): BegunTake =>
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
            const chunk = typedEvent('chunk', {
              data: piece.bytes.toString('base64'),
              step_time: stepTime(piece.endMs - piece.startMs),
              done: false,
              status_code: 200,
              ...context,
            });
            const spoken = wordsInPiece(words, piece);
            if (spoken.length === 0) return chunk;
            const timestamps = typedEvent('timestamps', {
              word_timestamps: {
                words: spoken.map((w) => w.word),
                start: spoken.map((w) => seconds(w.startMs)),
                end: spoken.map((w) => seconds(w.endMs)),
              },
              done: false,
              status_code: 200,
              ...context,
            });
            return [chunk, timestamps];
          },
          errorEvent: (f) => {
            const problem = vendorIFaultProblem(f);
            return typedEvent('error', {
              done: true,
              status_code: problem.status,
              title: problem.title,
              message: problem.message,
              error_code: problem.errorCode,
              request_id: requestId,
              ...context,
            });
          },
          doneEvent: () => typedEvent('done', { done: true, status_code: 200, ...context }),
          sendError: (f) => sendVendorIError(exchange, vendorIFaultProblem(f)),
        });
      },
    },
    {
      method: 'GET',
      path: '/voices',
      handle(exchange) {
        if (!authorized(exchange)) return;
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
        if (!authorized(exchange)) return;
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
