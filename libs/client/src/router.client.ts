import WebSocket from 'ws';
import type { Catalogue, ProviderId, ProviderKey, SpeechRequest, VoiceList, VoicesQuery } from './api.types';
import { RouterConnectionError, errorFromResponse } from './client.errors';
import { type SpeechAudio, speechAudio } from './speech-audio.stream';
import type { StreamSettings } from './stream.messages';
import { type StreamOptions, StreamSession } from './stream.session';
import type { WebSocketConstructor } from './websocket.types';

export interface RouterClientOptions {
  /** The router's address, e.g. `https://router.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** The org's router API key (`rtr_…`). `models()` needs none; every other call does. */
  apiKey?: string;
  /** A fetch implementation; default the global one (Node ≥ 20). */
  fetch?: typeof fetch;
  /** A WebSocket constructor shaped like the `ws` package's; default `ws`. */
  WebSocket?: WebSocketConstructor;
}

export interface CallOptions {
  signal?: AbortSignal;
}

/** The org's stored vendor keys: write-only, described by their last four characters. */
export interface ProviderKeysApi {
  list(options?: CallOptions): Promise<ProviderKey[]>;
  /** Stores or replaces the org's key for a vendor (used within seconds). */
  put(provider: ProviderId, apiKey: string, options?: CallOptions): Promise<ProviderKey>;
  /** Deletes it; a RouterApiError `not_found` (404) when none is stored. */
  delete(provider: ProviderId, options?: CallOptions): Promise<void>;
}

interface RequestOptions extends CallOptions {
  body?: unknown;
  /** Whether to send the API key (the catalogue is public: the key goes only where it is needed). */
  auth?: boolean;
}

/**
 * A typed client of the router's native API: speech, catalogue, voices, provider keys and the
 * `/v1/stream` WebSocket. Failures are RouterApiError (the router's error envelope) or
 * RouterConnectionError (the connection failed or was cut).
 */
export class RouterClient {
  readonly providerKeys: ProviderKeysApi;
  readonly #baseUrl: URL;
  readonly #apiKey: string | undefined;
  readonly #fetch: typeof fetch;
  readonly #WebSocket: WebSocketConstructor;

  constructor(options: RouterClientOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError('baseUrl must be an http or https address');
    }
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    this.#baseUrl = base;
    this.#apiKey = options.apiKey;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#WebSocket = options.WebSocket ?? WebSocket;
    this.providerKeys = {
      list: (o) => this.#json<ProviderKey[]>('GET', 'v1/provider-keys', o),
      put: (provider, apiKey, o) =>
        this.#json<ProviderKey>('PUT', `v1/provider-keys/${encodeURIComponent(provider)}`, {
          ...o,
          body: { api_key: apiKey },
        }),
      delete: async (provider, o) => {
        await this.#send('DELETE', `v1/provider-keys/${encodeURIComponent(provider)}`, o ?? {});
      },
    };
  }

  /**
   * `POST /v1/audio/speech`. Resolves once the router answers, with the audio to read as it streams;
   * a refusal before any audio rejects with RouterApiError. Abort with `options.signal`.
   */
  async speech(body: SpeechRequest, options: CallOptions = {}): Promise<SpeechAudio> {
    const res = await this.#send('POST', 'v1/audio/speech', { ...options, body });
    return speechAudio(
      res.headers.get('content-type') ?? '',
      res.headers.get('x-request-id'),
      res.body,
      options.signal,
    );
  }

  /** `GET /v1/models`: the catalogue of vendors, models, options and rates (no key needed). */
  models(options: CallOptions = {}): Promise<Catalogue> {
    return this.#json<Catalogue>('GET', 'v1/models', { ...options, auth: false });
  }

  /** `GET /v1/voices`: the voices the org can speak with at a vendor, read live with its stored key. */
  voices(query: VoicesQuery, options: CallOptions = {}): Promise<VoiceList> {
    const params = new URLSearchParams({ provider: query.provider });
    if (query.model !== undefined) params.set('model', query.model);
    return this.#json<VoiceList>('GET', `v1/voices?${params.toString()}`, options);
  }

  /**
   * Opens a `/v1/stream` session with these settings and resolves once the router accepted them
   * (`ready`). A refused handshake (401, 402, 400) or settings rejects with RouterApiError.
   */
  stream(settings: StreamSettings, options: StreamOptions = {}): Promise<StreamSession> {
    const url = new URL('v1/stream', this.#baseUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return StreamSession.open(this.#WebSocket, url.toString(), this.#headers(true), settings, options);
  }

  #headers(auth: boolean): Record<string, string> {
    return auth && this.#apiKey !== undefined ? { authorization: `Bearer ${this.#apiKey}` } : {};
  }

  async #json<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const res = await this.#send(method, path, options);
    try {
      return (await res.json()) as T;
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw new RouterConnectionError(`The answer to ${method} /${path} could not be read`, { cause: error });
    }
  }

  /** Sends a request; a non-2xx answer becomes the RouterApiError of its envelope. */
  async #send(method: string, path: string, options: RequestOptions): Promise<Response> {
    const headers = this.#headers(options.auth ?? true);
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    let res: Response;
    try {
      res = await this.#fetch(new URL(path, this.#baseUrl), {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      throw new RouterConnectionError(`${method} /${path.split('?')[0]} failed`, { cause: error });
    }
    if (res.ok) return res;
    let text = '';
    try {
      text = await res.text();
    } catch {
      // The status alone still says what happened.
    }
    throw errorFromResponse(res.status, text);
  }
}
