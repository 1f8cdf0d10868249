import {
  APICallError,
  LoadAPIKeyError,
  LoadSettingError,
  type SharedV3Warning,
  type SpeechModelV3,
  type SpeechModelV3CallOptions,
} from '@ai-sdk/provider';
import {
  type ProviderId,
  RouterApiError,
  RouterClient,
  RouterConnectionError,
  type SpeechRequest,
  VENDOR_TRAITS,
} from '@speech-router/client';

export const PROVIDER_OPTIONS_KEY = 'speechRouter';

/** What `doGenerate` answers (the speech model specification's result). */
export type SpeechResult = Awaited<ReturnType<SpeechModelV3['doGenerate']>>;
export const BASE_URL_ENV = 'SPEECH_ROUTER_URL';
export const API_KEY_ENV = 'SPEECH_ROUTER_API_KEY';

/** Where the router is and who is asking; each left out is read from the environment when a call is made. */
export interface SpeechRouterProviderSettings {
  /** The router's address, e.g. `https://router.example.com`; default the `SPEECH_ROUTER_URL` environment variable. */
  baseURL?: string;
  /** The org's router API key (`rtr_…`); default the `SPEECH_ROUTER_API_KEY` environment variable. */
  apiKey?: string;
  /** Headers sent with every request (beside the key). */
  headers?: Record<string, string>;
  /** A fetch implementation; default the global one. */
  fetch?: typeof fetch;
}

/** A model's defaults as the model keeps them (the typed `SpeechSettings` of its model id). */
export interface ModelDefaults {
  voice?: string;
  language?: string | null;
  speed?: number;
  responseFormat?: string;
  sampleRate?: number;
  options?: object;
}

/**
 * One router model as an AI SDK speech model (`generateSpeech`): a `POST /v1/audio/speech` per call, the
 * vendor's audio (from the org's cache where the same sentences were said before) as it came, the router's
 * request id in the response headers and `providerMetadata.speechRouter.requestId`.
 */
export class SpeechRouterSpeechModel implements SpeechModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider: string = 'speech-router.speech';
  readonly vendor: ProviderId;

  constructor(
    readonly modelId: string,
    private readonly defaults: ModelDefaults,
    private readonly settings: SpeechRouterProviderSettings,
  ) {
    const vendor = modelId.split('/')[0];
    if (!(vendor in VENDOR_TRAITS)) {
      throw new Error(
        `Unknown model ${JSON.stringify(modelId)}: a router model id is <vendor_a … vendor_j>/<model>`,
      );
    }
    this.vendor = vendor as ProviderId;
  }

  async doGenerate(options: SpeechModelV3CallOptions): Promise<SpeechResult> {
    const { body, warnings } = this.requestBody(options);
    const { baseURL, apiKey } = this.connection();
    const headers = { ...this.settings.headers, ...definedHeaders(options.headers) };
    const baseFetch = this.settings.fetch ?? globalThis.fetch;
    const client = new RouterClient({
      baseUrl: baseURL,
      apiKey,
      fetch: (input, init) =>
        baseFetch(input, { ...init, headers: { ...headers, ...(init?.headers as object) } }),
    });
    const url = `${baseURL.replace(/\/+$/, '')}/v1/audio/speech`;
    // The text stays out of what is reported about the request (errors, telemetry).
    const { input: _input, ...reported } = body;
    const timestamp = new Date();
    try {
      const audio = await client.speech(body, options.abortSignal ? { signal: options.abortSignal } : {});
      const bytes = await audio.bytes();
      const responseHeaders: Record<string, string> = { 'content-type': audio.contentType };
      if (audio.requestId !== null) responseHeaders['x-request-id'] = audio.requestId;
      return {
        audio: bytes,
        warnings,
        request: { body: JSON.stringify(reported) },
        response: { timestamp, modelId: this.modelId, headers: responseHeaders },
        providerMetadata: {
          [PROVIDER_OPTIONS_KEY]: {
            requestId: audio.requestId,
            contentType: audio.contentType,
            responseFormat: body.response_format ?? null,
          },
        },
      };
    } catch (error) {
      throw callError(error, url, reported, options.abortSignal);
    }
  }

  /** The speech body: the call's settings over the model's defaults, `providerOptions.speechRouter` last. */
  private requestBody(options: SpeechModelV3CallOptions): {
    body: SpeechRequest;
    warnings: SharedV3Warning[];
  } {
    const traits = VENDOR_TRAITS[this.vendor];
    const warnings: SharedV3Warning[] = [];
    const body: SpeechRequest = { model: this.modelId, input: options.text, voice: '' };
    const voice = options.voice ?? this.defaults.voice;
    if (voice !== undefined) body.voice = voice;
    const format = options.outputFormat ?? this.defaults.responseFormat;
    body.response_format = (format ??
      ((traits.formats as readonly string[]).includes('mp3')
        ? 'mp3'
        : 'wav')) as SpeechRequest['response_format'];
    if (this.defaults.sampleRate !== undefined) {
      body.sample_rate = this.defaults.sampleRate as SpeechRequest['sample_rate'];
    }

    const language = options.language === 'auto' ? undefined : (options.language ?? this.defaults.language);
    if (language !== undefined && language !== null) {
      if (traits.languageRule === 'none') {
        warnings.push({
          type: 'unsupported',
          feature: 'language',
          details: `${this.vendor} takes no language`,
        });
      } else body.language = language;
    }
    const speed = options.speed ?? this.defaults.speed;
    if (speed !== undefined) {
      if (!traits.speed) {
        warnings.push({
          type: 'unsupported',
          feature: 'speed',
          details: `${this.vendor} has no top-level speed`,
        });
      } else body.speed = speed;
    }
    Object.assign(body, this.defaults.options);
    if (options.instructions !== undefined) {
      if ((traits.options as readonly string[]).includes('instructions'))
        body.instructions = options.instructions;
      else {
        warnings.push({
          type: 'unsupported',
          feature: 'instructions',
          details: `${this.vendor} takes no instructions`,
        });
      }
    }
    Object.assign(body, options.providerOptions?.[PROVIDER_OPTIONS_KEY]);
    return { body, warnings };
  }

  private connection(): { baseURL: string; apiKey: string } {
    const baseURL = this.settings.baseURL ?? process.env[BASE_URL_ENV];
    const apiKey = this.settings.apiKey ?? process.env[API_KEY_ENV];
    if (!baseURL) {
      throw new LoadSettingError({
        message: `The router's address is missing: pass baseURL or set the ${BASE_URL_ENV} environment variable.`,
      });
    }
    if (!apiKey) {
      throw new LoadAPIKeyError({
        message: `The router API key is missing: pass apiKey or set the ${API_KEY_ENV} environment variable.`,
      });
    }
    return { baseURL, apiKey };
  }
}

function definedHeaders(headers: Record<string, string | undefined> | undefined): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) defined[name] = value;
  return defined;
}

/** The AI SDK's error for a failed call: retryable where the router says so (the SDK then retries). */
function callError(error: unknown, url: string, requestBodyValues: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return error;
  if (error instanceof RouterApiError) {
    return new APICallError({
      message: `${error.code}: ${error.message}`,
      url,
      requestBodyValues,
      ...(error.httpStatus === undefined ? {} : { statusCode: error.httpStatus }),
      responseBody: JSON.stringify({ error: error.body }),
      isRetryable: error.retryable,
      data: error.body,
      cause: error,
    });
  }
  if (error instanceof RouterConnectionError) {
    return new APICallError({
      message: error.message,
      url,
      requestBodyValues,
      isRetryable: true,
      cause: error,
    });
  }
  return error;
}
