import { randomBytes } from 'node:crypto';
import type { Take, TakePiece } from '../kit/audio/take';
import type { HttpExchange } from '../kit/http/http-exchange';
import type { HttpRoute } from '../kit/http/http-route';
import { playOneShot } from '../kit/http/play-one-shot';
import { endEarly } from '../kit/http/play-stream';
import { playTake } from '../kit/play-take';
import { checkKey, requestKey } from '../kit/sim-keys';
import { beginTake, type SimKit } from '../kit/sim-vendor';
import {
  parseVendorJRequest,
  readVendorJModelCall,
  VENDOR_J_API_VERSIONS,
  VENDOR_J_MODELS,
  VENDOR_J_NOT_FOUND,
  VENDOR_J_PCM_MIME,
  VENDOR_J_SAMPLE_RATE,
  VENDOR_J_VOICE_NAMES,
  VENDOR_J_WAV_MIME,
  VENDOR_J_WAV_MODELS,
  vendorJAuthProblem,
  vendorJErrorBody,
  vendorJModelNotFound,
  vendorJResponse,
  vendorJSseEvent,
  vendorJUsage,
  type VendorJApiVersion,
  type VendorJProblem,
  type VendorJRequest,
  VENDOR_J_KEY,
} from '@router/vendor-j';
import { sendVendorJError, vendorJFaultProblem } from './vendor-j.errors';

/** The key where the vendor takes it (`VENDOR_J_KEY`); answers the vendor's refusal itself. */
function authorized(exchange: HttpExchange): string | undefined {
  const key = requestKey(VENDOR_J_KEY, exchange);
  const check = checkKey(key);
  if (check !== 'ok') {
    sendVendorJError(exchange, vendorJAuthProblem(check));
    return undefined;
  }
  return key;
}

function modelCall(exchange: HttpExchange): { model: string; verb: string } {
  return readVendorJModelCall(exchange.params['call'] ?? '');
}

function modelResource(id: string): Record<string, unknown> {
  return {
    name: `models/${id}`,
    version: '001',
    displayName: id,
    description: 'Text-to-speech model: audio out only.',
    inputTokenLimit: 8192,
    outputTokenLimit: 16384,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  };
}

/** A page of `items` from `pageToken` (the offset, base64), with the token of the next page if any. */
function page<T>(
  exchange: HttpExchange,
  items: readonly T[],
  fallbackSize: number,
): { items: T[]; next?: string } | VendorJProblem {
  const size = Number(exchange.query.get('pageSize') ?? fallbackSize);
  if (!Number.isInteger(size) || size < 0) {
    return { code: 400, status: 'INVALID_ARGUMENT', message: 'pageSize must be a non-negative integer' };
  }
  const token = exchange.query.get('pageToken');
  const offset = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
  if (!Number.isInteger(offset) || offset < 0 || offset > items.length) {
    return { code: 400, status: 'INVALID_ARGUMENT', message: 'Invalid pageToken' };
  }
  const take = Math.min(size === 0 ? fallbackSize : size, 1000);
  const end = offset + take;
  return {
    items: items.slice(offset, end),
    ...(end < items.length ? { next: Buffer.from(String(end)).toString('base64url') } : {}),
  };
}

/** One response of a take: a piece's audio; the last also carries the usage of the whole take. */
function response(
  model: string,
  responseId: string,
  inline: { mimeType: string; data: Buffer },
  final?: { text: string; take: Take },
): Record<string, unknown> {
  return vendorJResponse(model, responseId, inline, final && vendorJUsage(final.text, final.take.durationMs));
}

interface Accepted {
  readonly key: string;
  readonly model: string;
  readonly verb: string;
  readonly request: VendorJRequest;
}

function accept(exchange: HttpExchange, version: VendorJApiVersion): Accepted | undefined {
  const key = authorized(exchange);
  if (!key) return undefined;
  const { model, verb } = modelCall(exchange);
  if (verb !== 'generateContent' && verb !== 'streamGenerateContent') {
    exchange.send(404, VENDOR_J_NOT_FOUND.contentType, VENDOR_J_NOT_FOUND.body);
    return undefined;
  }
  if (!VENDOR_J_MODELS.includes(model)) {
    sendVendorJError(exchange, vendorJModelNotFound(model, { verb, version }));
    return undefined;
  }
  const parsed = parseVendorJRequest(model, exchange.json());
  if (!parsed.ok) {
    sendVendorJError(exchange, parsed.problem);
    return undefined;
  }
  return { key, model, verb, request: parsed.request };
}

export function vendorJHttpRoutes(kit: SimKit): HttpRoute[] {
  const pacing = () => kit.state.pacing('vendor_j');

  async function generate(exchange: HttpExchange, accepted: Accepted): Promise<void> {
    const { model, request } = accepted;
    const wav = VENDOR_J_WAV_MODELS.includes(model);
    const begun = beginTake(kit, {
      vendor: 'vendor_j',
      endpoint: 'rest',
      key: accepted.key,
      text: request.text,
      spec: { codec: wav ? 'wav' : 'pcm', sampleRate: VENDOR_J_SAMPLE_RATE },
    });
    const { take } = begun;
    const inline = { mimeType: wav ? VENDOR_J_WAV_MIME : VENDOR_J_PCM_MIME, data: take.bytes };
    const body = Buffer.from(
      JSON.stringify(response(model, newResponseId(), inline, { text: request.text, take })),
    );
    await playOneShot(exchange, begun, pacing(), {
      contentType: 'application/json; charset=UTF-8',
      body,
      sendError: (f) => sendVendorJError(exchange, vendorJFaultProblem(f)),
    });
  }

  /** With `alt=sse` one `data:` event per piece; without it the vendor answers one JSON array of them all. */
  async function stream(exchange: HttpExchange, accepted: Accepted): Promise<void> {
    const { model, request } = accepted;
    const sse = exchange.query.get('alt') === 'sse';
    const { take, fault } = beginTake(kit, {
      vendor: 'vendor_j',
      endpoint: sse ? 'sse' : 'stream',
      key: accepted.key,
      text: request.text,
      spec: { codec: 'pcm', sampleRate: VENDOR_J_SAMPLE_RATE },
    });
    const responseId = newResponseId();
    const event = (piece: TakePiece): Record<string, unknown> =>
      response(
        model,
        responseId,
        { mimeType: VENDOR_J_PCM_MIME, data: piece.bytes },
        piece.last ? { text: request.text, take } : undefined,
      );
    const collected: Record<string, unknown>[] = [];
    const outcome = await playTake(
      take,
      {
        signal: exchange.signal,
        open: () => {
          if (sse) exchange.open(200, 'text/event-stream', { connection: 'keep-alive' });
        },
        send: async (piece) => {
          if (!sse) {
            collected.push(event(piece));
            return;
          }
          await exchange.write(vendorJSseEvent(event(piece)));
        },
        fail: async (f, started) => {
          const problem = vendorJFaultProblem(f);
          if (!started || !sse) return sendVendorJError(exchange, problem);
          // Mid-stream the vendor can only send the error as one more event, then end the body.
          await exchange.write(vendorJSseEvent(vendorJErrorBody(problem)));
          exchange.end();
        },
        cut: () => exchange.destroy(),
        // Ended early, the events stop inside the one the fault fell in (none without it), with no STOP.
        ...(sse
          ? {
              end: (partial?: TakePiece, garbage?: Buffer) =>
                endEarly(exchange, partial ? [vendorJSseEvent(event(partial))] : [], garbage),
            }
          : {}),
      },
      pacing(),
      fault,
    );
    if (outcome !== 'done') return;
    if (sse) exchange.end();
    else exchange.sendJson(200, collected);
  }

  // Every endpoint under each of the vendor's API versions alike.
  return VENDOR_J_API_VERSIONS.flatMap((version): HttpRoute[] => [
    {
      method: 'POST',
      path: `/${version}/models/:call`,
      async handle(exchange) {
        const accepted = accept(exchange, version);
        if (!accepted) return;
        await (accepted.verb === 'generateContent'
          ? generate(exchange, accepted)
          : stream(exchange, accepted));
      },
    },
    {
      method: 'GET',
      path: `/${version}/models`,
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_j', 'models', key);
        const result = page(exchange, VENDOR_J_MODELS, 50);
        if ('code' in result) return sendVendorJError(exchange, result);
        exchange.sendJson(200, {
          models: result.items.map(modelResource),
          ...(result.next ? { nextPageToken: result.next } : {}),
        });
      },
    },
    {
      method: 'GET',
      path: `/${version}/models/:call`,
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_j', 'model', key);
        const { model } = modelCall(exchange);
        if (VENDOR_J_MODELS.includes(model)) return exchange.sendJson(200, modelResource(model));
        sendVendorJError(exchange, vendorJModelNotFound(model));
      },
    },
    {
      method: 'GET',
      path: `/${version}/voices`,
      handle(exchange) {
        const key = authorized(exchange);
        if (!key) return;
        kit.state.recordRead('vendor_j', 'voices', key);
        const result = page(exchange, VENDOR_J_VOICE_NAMES, 10);
        if ('code' in result) return sendVendorJError(exchange, result);
        exchange.sendJson(200, {
          voices: result.items.map((name) => ({ name: `voices/${name}`, voiceName: name })),
          ...(result.next ? { nextPageToken: result.next } : {}),
        });
      },
    },
  ]);
}

function newResponseId(): string {
  return randomBytes(12).toString('base64url');
}
