import { StringDecoder } from 'node:string_decoder';
import { RouterError, type SynthSettings } from '@router/contracts';
import { Agent, request, type Dispatcher } from 'undici';
import type { DropInAnswer } from './drop-in.types';
import type { JsonValue } from './catalogue.types';
import type { StoredReference, StoredSettingsReader } from './stored-settings.types';
import {
  type KeyPlacements,
  pathWithKey,
  placeKey,
  type PlacedKey,
  type RequestKeyPlacement,
} from './key-placement';
import {
  FORMAT_CONTENT_TYPES,
  type DropInCall,
  type AdapterOptions,
  type SynthesisCall,
  type SynthesisEvent,
  type VendorAdapter,
} from './vendor-adapter';
import { vendorFailure, vendorUnreachable } from './vendor-errors';
import { parseJsonObject, parseSse, type SseEvent } from './upstream-parse';
import type { VendorId } from './vendor-id';

/** One JSON POST to the vendor for one piece. */
export interface UpstreamRequest {
  /** Path under the vendor's base URL, with its query. */
  readonly path: string;
  /** Sent as JSON. */
  readonly body: unknown;
  /** The org's key, sent where the vendor's own clients put it (the first of its key placements). */
  readonly apiKey: string;
  /** The vendor's own headers besides the key: an `accept` where it wants one, a version. */
  readonly headers: Readonly<Record<string, string>>;
  /** The call's signal: aborting it stops the request and the body read at the vendor. */
  readonly signal: AbortSignal;
}

/** The JSON POST that speaks one piece (a vendor's wire), and how its answer's body is read. */
export interface SpeechExchange {
  /** Path under the vendor's base URL, with its query. */
  readonly path: string;
  /** Sent as JSON. */
  readonly body: unknown;
  /** The vendor's own headers besides the key (an `accept`, a version); none when left out. */
  readonly headers?: Readonly<Record<string, string>>;
  /** What the answer's body (and headers) yield as the take, as it arrives. */
  readonly read: AnswerReader;
}

/** Reads a successful answer into the take's events; its headers too, where the vendor reports in them. */
export type AnswerReader = (
  body: UpstreamBody,
  headers: Readonly<Record<string, string>>,
) => AsyncIterable<SynthesisEvent>;

/** Who reads a JSON GET: the org's key (undefined sends none, for a vendor's public lists) and the signal. */
export interface UpstreamAccess {
  readonly apiKey: string | undefined;
  readonly signal: AbortSignal;
}

/** A successful answer's body, read one way only. */
export interface UpstreamBody {
  /** The bytes as they arrive. */
  chunks(): AsyncIterable<Buffer>;
  /** The body as UTF-8 text as it arrives (a character split across chunks stays whole). */
  textChunks(): AsyncIterable<string>;
  /** The whole body as text, once complete. */
  text(): Promise<string>;
}

/** Reads a vendor's refusal text out of an error body (its wire shape). */
export type RefusalReader = (body: string) => string;

/** Reads a vendor's own code for its refusal out of an error body, where its shape has one. */
export type RefusalCodeReader = (body: string) => string | undefined;

/**
 * What a vendor's HTTP adapter declares: its wire's facts, each written once in its folder, and the request
 * that speaks one piece.
 */
export interface HttpVendorWire {
  readonly vendor: VendorId;
  /** Where the vendor takes its key, its own clients' place first: the org's key goes there on every call. */
  readonly keyPlacements: KeyPlacements;
  /** The refusal text of an error body. */
  readonly refusalText: RefusalReader;
  /** The vendor's own code for a refusal, where its error bodies carry one. */
  readonly refusalCode?: RefusalCodeReader;
  /** The request for one piece and how its answer is read. */
  readonly speech: (call: SynthesisCall) => SpeechExchange;
}

/** The Content-Type of the router's native formats (spec: Native speech), a format it has none for as bytes. */
export function formatContentType(settings: Pick<SynthSettings, 'format'>): string {
  return FORMAT_CONTENT_TYPES[settings.format] ?? 'application/octet-stream';
}

/**
 * The HTTP upstream every REST/SSE vendor adapter shares: a keep-alive undici pool to the vendor's base URL,
 * the JSON POST with the vendor's refusals mapped through `vendorFailure`, lost connections and cuts through
 * `vendorUnreachable`, an aborted call ending with its signal's reason, and the org's key placed on every
 * call where the vendor's own clients put it (the first of the vendor's `KeyPlacements`). A vendor's adapter
 * extends it with its wire only (`HttpVendorWire`: the request it builds for a piece and how it reads the
 * body), and where its voices and stored settings are read (`getJson`, `storedSettingsReader`).
 */
export abstract class HttpVendorAdapter implements VendorAdapter {
  readonly vendor: VendorId;
  private readonly baseUrl: string;
  private readonly dispatcher = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000 });
  private readonly keyPlacement: RequestKeyPlacement;

  protected constructor(
    options: AdapterOptions,
    private readonly wire: HttpVendorWire,
  ) {
    this.vendor = wire.vendor;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.keyPlacement = wire.keyPlacements[0];
  }

  contentType(settings: SynthSettings): string {
    return formatContentType(settings);
  }

  /**
   * POSTs the vendor's request for the piece (its wire's `speech`, built once the take is first read, so a
   * request the wire refuses fails the take) and yields what its reader makes of the answer.
   */
  async *synthesize(call: SynthesisCall): AsyncGenerator<SynthesisEvent> {
    const { path, body, headers = {}, read } = this.wire.speech(call);
    yield* this.exchange({ path, body, apiKey: call.apiKey, headers, signal: call.signal }, read);
  }

  /**
   * A drop-in request sent on verbatim: the client's method, path, query and body, the request headers the
   * planner kept of it (`FORWARDED_REQUEST_HEADERS`, the wire's keyed and sent-on ones) and the org's key where the
   * vendor takes it. Whatever the vendor answers comes back with all its headers (the wire says which a
   * client gets); only a connection that fails or is cut throws, and so does a body whose trailers report
   * that the answer failed after all (`trailerFailure`, as for synthesis): such an answer is not whole.
   */
  async forward(call: DropInCall): Promise<DropInAnswer> {
    const { request: sent, signal } = call;
    if (signal.aborted) throw signal.reason;
    const key = this.placedKey(call.apiKey);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(this.url(`${sent.path}${sent.query ? `?${sent.query}` : ''}`, key), {
        method: sent.method,
        dispatcher: this.dispatcher,
        signal,
        headers: { ...sent.headers, ...key.headers },
        body: sent.method === 'GET' || sent.method === 'HEAD' ? null : Buffer.from(sent.body),
      });
    } catch (error) {
      throw upstreamFailure(this.vendor, error, signal);
    }
    const headers = flatHeaders(response.headers);
    const vendor = this.vendor;
    const body = response.body;
    const trailerFailure = () => this.trailerFailure(response.trailers);
    return {
      status: response.statusCode,
      headers,
      body: (async function* () {
        try {
          for await (const chunk of body as AsyncIterable<Buffer>) yield chunk;
          // Trailers arrive with the end of the body.
          const failure = trailerFailure();
          if (failure) throw failure;
        } catch (error) {
          throw upstreamFailure(vendor, error, signal);
        } finally {
          if (!body.readableEnded) body.destroy();
        }
      })(),
    };
  }

  /** Closes the pooled connections. */
  close(): Promise<void> {
    return this.dispatcher.close();
  }

  /**
   * POSTs the request and yields what `read` makes of the answer's body, nothing more once the call is
   * aborted (a body read whole may complete just as the abort comes). Whatever `read` throws that is not
   * already a router error is a lost connection; left early (a consumer that stopped, an error), the
   * connection is dropped rather than drained for a take nobody wants.
   */
  private async *exchange(upstream: UpstreamRequest, read: AnswerReader): AsyncGenerator<SynthesisEvent> {
    const response = await this.send(upstream);
    try {
      for await (const item of read(bodyOf(response.body), flatHeaders(response.headers))) {
        if (upstream.signal.aborted) throw upstream.signal.reason;
        yield item;
      }
      // Trailers arrive with the end of the body: a vendor may report there that the take failed after all.
      const failure = this.trailerFailure(response.trailers);
      if (failure) throw failure;
    } catch (error) {
      throw upstreamFailure(this.vendor, error, upstream.signal);
    } finally {
      if (!response.body.readableEnded) response.body.destroy();
    }
  }

  /** A failure the vendor reported in the HTTP trailers of an answer whose body ended cleanly; none by default. */
  protected trailerFailure(_trailers: Readonly<Record<string, string>>): RouterError | null {
    return null;
  }

  /**
   * GETs one JSON object from the vendor (a voice list page, stored settings) with its refusals and lost
   * connections mapped as for synthesis; a body that is not a JSON object is the vendor's malformed answer.
   * `apiKey` undefined sends no key, for the vendor's public lists.
   */
  protected async getJson<T extends object>(path: string, access: UpstreamAccess): Promise<T> {
    const { apiKey, signal } = access;
    if (signal.aborted) throw signal.reason;
    const key = apiKey === undefined ? NO_KEY : this.placedKey(apiKey);
    let text: string;
    try {
      const response = await request(this.url(path, key), {
        method: 'GET',
        dispatcher: this.dispatcher,
        signal,
        headers: { accept: 'application/json', ...key.headers },
      });
      text = await response.body.text();
      if (response.statusCode >= 400) {
        throw this.refusal(response.statusCode, text);
      }
    } catch (error) {
      throw upstreamFailure(this.vendor, error, signal);
    }
    return parseJsonObject<T>(this.vendor, text, 'an answer');
  }

  /**
   * What a vendor stores that a piece's settings name (spec: What is cached): `references` names them,
   * `target` says where the vendor answers one (undefined for a name the vendor never makes: a router bug,
   * refused as internal), and `read` reads it there with the org's key.
   */
  protected storedSettingsReader<T>(
    references: StoredSettingsReader['references'],
    target: (reference: StoredReference) => T | undefined,
    read: (target: T, access: UpstreamAccess) => Promise<JsonValue>,
  ): StoredSettingsReader {
    return {
      references,
      read: async (reference, call) => {
        const found = target(reference);
        if (found === undefined) {
          throw new RouterError('internal', `${this.vendor} stores nothing named ${reference.name}`);
        }
        return read(found, call);
      },
    };
  }

  /** The org's key where the vendor takes it. */
  private placedKey(apiKey: string): PlacedKey {
    return placeKey(this.keyPlacement, apiKey);
  }

  /** The vendor's URL for a path (with its query), the key's query parameters added where it goes there. */
  private url(path: string, key: PlacedKey): string {
    return `${this.baseUrl}${pathWithKey(path, key)}`;
  }

  private async send(upstream: UpstreamRequest): Promise<Dispatcher.ResponseData> {
    const { signal } = upstream;
    if (signal.aborted) throw signal.reason;
    const key = this.placedKey(upstream.apiKey);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(this.url(upstream.path, key), {
        method: 'POST',
        dispatcher: this.dispatcher,
        signal,
        headers: { 'content-type': 'application/json', ...upstream.headers, ...key.headers },
        body: JSON.stringify(upstream.body),
      });
    } catch (error) {
      throw upstreamFailure(this.vendor, error, signal);
    }
    if (response.statusCode < 400) return response;
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      throw upstreamFailure(this.vendor, error, signal);
    }
    throw this.refusal(response.statusCode, text);
  }

  /** The vendor's error answer as the router reports it: its status, message and, where read, its code. */
  private refusal(status: number, body: string): RouterError {
    const { refusalText, refusalCode } = this.wire;
    return vendorFailure(this.vendor, status, refusalText(body), refusalCode?.(body));
  }
}

/** A call that sends no key (a vendor's public list). */
const NO_KEY: PlacedKey = { headers: {}, query: [] };

/** The client's request headers a drop-in request takes to the vendor (the key goes in the vendor's own). */
export const FORWARDED_REQUEST_HEADERS: readonly string[] = ['content-type', 'accept'];

/** The body's audio passed through untouched, chunk by chunk as it arrives. */
export async function* audioPassThrough(body: UpstreamBody): AsyncGenerator<SynthesisEvent> {
  for await (const chunk of body.chunks()) {
    if (chunk.length > 0) yield { kind: 'audio', data: chunk };
  }
}

/** What one event of a take's event stream adds: events to pass on, and whether the take is now complete. */
export interface SseTakeStep {
  readonly events?: readonly SynthesisEvent[];
  readonly complete?: boolean;
}

/**
 * A take streamed as server-sent events, each read by the vendor's `step` as it arrives. The take is complete
 * once a step says so; a stream that ends before that (a cut) fails as a lost connection, naming `endMarker`.
 * After the end of the take the rest of the body is read, so the connection goes back to the pool, and a
 * connection lost then loses nothing.
 */
export async function* readSseTake(
  vendor: VendorId,
  body: UpstreamBody,
  step: (event: SseEvent) => SseTakeStep,
  endMarker: string,
): AsyncGenerator<SynthesisEvent> {
  let complete = false;
  try {
    for await (const event of parseSse(body.textChunks())) {
      if (complete) continue;
      const next = step(event);
      if (next.events) yield* next.events;
      complete = next.complete === true;
    }
  } catch (error) {
    if (!complete) throw error;
  }
  if (!complete) throw vendorUnreachable(vendor, new Error(`the event stream ended before ${endMarker}`));
}

/**
 * What a failed upstream call ends with: an aborted call with its signal's reason, a router error as it is,
 * anything else as a lost connection.
 */
export function upstreamFailure(vendor: VendorId, error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason;
  if (error instanceof RouterError) return error;
  return vendorUnreachable(vendor, error);
}

/** An answer's headers, lower-case names, several values joined with `, `. */
function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function bodyOf(body: Dispatcher.ResponseData['body']): UpstreamBody {
  return {
    chunks: () => body as AsyncIterable<Buffer>,
    textChunks: () => utf8Text(body as AsyncIterable<Buffer>),
    text: () => body.text(),
  };
}

/**
 * Bytes as UTF-8 text, a character split across chunks kept whole. (undici's body takes `setEncoding` without
 * decoding: its chunks stay Buffers.)
 */
async function* utf8Text(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of chunks) {
    const text = decoder.write(chunk);
    if (text !== '') yield text;
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}
