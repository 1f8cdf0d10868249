import { type ProviderId, RouterApiError, type RouterClient } from '@router/client';
import { VENDOR_IDS } from '@router/vendors';
import { mirrorSocketUrl, openSocket, type JsonFrame, type TestSocket } from './socket-client';
import type { StackInfo } from './stack';
import { vendorSettings } from './vendor-settings';

/** How one request ended: cleanly (whatever its audio), refused before any audio, or broken after some. */
export interface SurfaceOutcome {
  readonly end: 'clean' | 'refused' | 'broken';
  /** The HTTP status of a refusal or of the answer; absent on sockets. */
  readonly status?: number;
  /** The router's error code where the surface carries one (native HTTP and `/v1/stream`). */
  readonly code?: string;
  /** The audio (a mirror's REST and SSE: the whole body, a refusal's included). */
  readonly audio: Buffer;
  /** A failure's text as the client saw it: the error's message, or a mirror socket's error frames. */
  readonly message?: string;
}

export type SurfaceKind = 'native' | 'stream' | 'mirror-http' | 'mirror-socket';

/** An org as a surface speaks for it: its router key, the vendor key it stored, and a client on its key. */
export interface SurfaceOrg {
  readonly key: string;
  readonly vendorKey: string;
  readonly client: RouterClient;
}

/** One way in for one vendor: what it says a text with, once its org exists. */
export interface Surface {
  readonly vendor: ProviderId;
  readonly kind: SurfaceKind;
  readonly name: string;
  /** Says `text` as one sentence and reads the answer to its end; an aborted `signal` ends it early. */
  say(org: SurfaceOrg, text: string, signal?: AbortSignal): Promise<SurfaceOutcome>;
}

/**
 * Every way in for every vendor of the registry, as that vendor's own client uses it: native HTTP
 * (`POST /v1/audio/speech`) and `/v1/stream` with the vendor's settings, and each mirror's REST, SSE and
 * socket endpoints that synthesize. Shared by the vendor-fault table, the secrets sweep and the soak.
 */
export function everySurface(stack: Pick<StackInfo, 'gatewayUrl' | 'simUrl'>): readonly Surface[] {
  type Outcome = SurfaceOutcome;
  type Org = SurfaceOrg;

  /** `POST /v1/audio/speech` with the vendor's settings of the fixture. */
  const native = (vendor: ProviderId): Surface => ({
    vendor,
    kind: 'native',
    name: 'POST /v1/audio/speech',
    async say(org, text, signal) {
      const settings = await vendorSettings(stack)[vendor](org.vendorKey);
      let audio = Buffer.alloc(0);
      try {
        const speech = await org.client.speech({ ...settings, input: text }, { signal });
        for await (const chunk of speech) audio = Buffer.concat([audio, chunk]);
        return { end: 'clean', status: 200, code: '', audio };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (error instanceof RouterApiError && audio.length === 0) {
          return { end: 'refused', status: error.httpStatus ?? 0, code: error.code, audio, message };
        }
        return { end: 'broken', audio, message };
      }
    },
  });

  /** One sentence on `/v1/stream` with the same settings. */
  const stream = (vendor: ProviderId): Surface => ({
    vendor,
    kind: 'stream',
    name: '/v1/stream',
    async say(org, text, signal) {
      // The speech body takes vendor options top-level; a settings message takes them in `options`.
      const { instructions, ...settings } = await vendorSettings(stack)[vendor](org.vendorKey);
      const session = await org.client.stream(
        { ...settings, ...(instructions === undefined ? {} : { options: { instructions } }) },
        { signal },
      );
      signal?.addEventListener('abort', () => session.disconnect(), { once: true });
      const sentences = session.sentences();
      session.send(text);
      const closing = session.close();
      let audio = Buffer.alloc(0);
      let outcome: Outcome = { end: 'clean', audio };
      for (let next = await sentences.next(); !next.done; next = await sentences.next()) {
        try {
          for await (const chunk of next.value.audio) audio = Buffer.concat([audio, chunk]);
          await next.value.end();
          outcome = { end: 'clean', audio };
        } catch (error) {
          const code = error instanceof RouterApiError ? error.code : 'unknown';
          const message = error instanceof Error ? error.message : String(error);
          outcome = { end: audio.length === 0 ? 'refused' : 'broken', code, audio, message };
        }
      }
      await closing.catch(() => undefined);
      return outcome;
    },
  });

  /** A mirror's REST or SSE endpoint: the request as the vendor's own client sends it, read to its end. */
  function mirrorHttp(
    vendor: ProviderId,
    name: string,
    request: (
      org: Org,
      text: string,
    ) => Promise<{ path: string; headers: Record<string, string>; body: unknown }>,
  ): Surface {
    return {
      vendor,
      kind: 'mirror-http',
      name,
      async say(org, text, signal) {
        const { path, headers, body } = await request(org, text);
        const answer = await fetch(`${stack.gatewayUrl}/${vendor}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
          signal,
        });
        const chunks: Buffer[] = [];
        try {
          for await (const chunk of answer.body ?? []) chunks.push(Buffer.from(chunk));
        } catch {
          return { end: 'broken', status: answer.status, audio: Buffer.concat(chunks) };
        }
        const audio = Buffer.concat(chunks);
        return { end: answer.status === 200 ? 'clean' : 'refused', status: answer.status, audio };
      },
    };
  }

  interface SocketDriver {
    path: string | ((org: Org) => Promise<string>);
    query?: Record<string, string>;
    headers(org: Org): Record<string, string>;
    /** The messages that say `text` as one sentence and end it. */
    messages(org: Org, text: string): Promise<unknown[]>;
    done(frame: JsonFrame): boolean;
    error(frame: JsonFrame): boolean;
    /** A frame's audio (binary frames are audio on their own). */
    audio(frame: JsonFrame): Buffer | undefined;
  }

  /** A mirror's socket: one sentence said on a new connection, read until its end, its error or the close. */
  function mirrorSocket(vendor: ProviderId, name: string, driver: SocketDriver): Surface {
    return {
      vendor,
      kind: 'mirror-socket',
      name,
      async say(org, text, signal) {
        const path = typeof driver.path === 'string' ? driver.path : await driver.path(org);
        const socket: TestSocket = await openSocket(
          mirrorSocketUrl(stack.gatewayUrl, vendor, path, driver.query ?? {}),
          { headers: driver.headers(org) },
        );
        signal?.addEventListener('abort', () => socket.close(), { once: true });
        for (const message of await driver.messages(org, text))
          socket.send(message as Record<string, unknown>);
        const over = (frames: readonly JsonFrame[]): boolean =>
          frames.some((f) => driver.done(f) || driver.error(f));
        await Promise.race([socket.until(over).catch(() => undefined), socket.closed]);
        const closed = await Promise.race([socket.closed, Promise.resolve(undefined)]);
        socket.close();
        const audio = Buffer.concat([
          ...socket.binaries,
          ...socket.frames.flatMap((f) => {
            const bytes = driver.audio(f);
            return bytes ? [bytes] : [];
          }),
        ]);
        const failed =
          socket.frames.some((f) => driver.error(f)) || (closed !== undefined && closed.code !== 1000);
        const finished = socket.frames.some((f) => driver.done(f));
        const errors = socket.frames.filter((f) => driver.error(f));
        return {
          end: failed || !finished ? 'broken' : 'clean',
          audio,
          ...(errors.length > 0 ? { message: JSON.stringify(errors) } : {}),
        };
      },
    };
  }

  const base64 = (value: unknown): Buffer | undefined =>
    typeof value === 'string' && value !== '' ? Buffer.from(value, 'base64') : undefined;

  /** A vendor's voice from the simulator's own list (what the vendor's client would pick). */
  async function simJson(vendor: string, path: string, headers: Record<string, string>): Promise<any> {
    const answer = await fetch(`${stack.simUrl}/${vendor}${path}`, { headers });
    return answer.json();
  }
  const vendorBVoice = async (key: string): Promise<string> =>
    ((await simJson('vendor_b', '/v1/voices', { 'x-api-key': key })).voices as any[]).find(
      (v) => v.model === 'b_model_1' && v.language === 'hi',
    ).voice_id;
  const vendorCVoice = async (key: string): Promise<string> =>
    (await simJson('vendor_c', '/v1/voices', { 'vendor_c-api-key': key })).voices[0].voice_id;
  const VENDOR_I = { 'vendor_i-version': '2026-08-14' };
  const vendorIVoice = async (key: string): Promise<string> =>
    (await simJson('vendor_i', '/voices', { 'x-api-key': key, ...VENDOR_I })).data[0].id;
  const vendorJBody = (text: string) => ({
    contents: [{ parts: [{ text }] }],
    generationConfig: {
      responseModalities: ['AUDIO'],
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Anselm' } } },
    },
  });
  const vendorIBody = async (org: Org, text: string) => ({
    model_id: 'i_model_2',
    transcript: text,
    voice: { mode: 'id', id: await vendorIVoice(org.vendorKey) },
    output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16000 },
    language: 'en',
  });

  const mirrors: readonly Surface[] = [
    mirrorHttp('vendor_a', 'REST /text-to-speech/stream', async (org, text) => ({
      path: '/text-to-speech/stream',
      headers: { 'api-subscription-key': org.key },
      body: { text, target_language_code: 'en-IN', speaker: 'aarila', output_audio_codec: 'linear16' },
    })),
    mirrorHttp('vendor_a', 'REST /text-to-speech', async (org, text) => ({
      path: '/text-to-speech',
      headers: { 'api-subscription-key': org.key },
      body: { text, target_language_code: 'en-IN', speaker: 'aarila', output_audio_codec: 'wav' },
    })),
    mirrorSocket('vendor_a', 'socket /text-to-speech/ws', {
      path: '/text-to-speech/ws',
      query: { model: 'a_model_1', send_completion_event: 'true' },
      headers: (org) => ({ 'api-subscription-key': org.key }),
      messages: async (_org, text) => [
        { type: 'config', data: { target_language_code: 'en-IN', speaker: 'aarila' } },
        { type: 'text', data: { text } },
        { type: 'flush' },
      ],
      done: (f) => f['type'] === 'event' && f['data']?.['event_type'] === 'final',
      error: (f) => f['type'] === 'error',
      audio: (f) => (f['type'] === 'audio' ? base64(f['data']?.['audio']) : undefined),
    }),
    mirrorHttp('vendor_b', 'REST /v1/text-to-speech', async (org, text) => ({
      path: '/v1/text-to-speech',
      headers: { 'x-api-key': org.key },
      body: { text, voice_id: await vendorBVoice(org.vendorKey), codec: 'pcm', sample_rate: 16000 },
    })),
    mirrorHttp('vendor_b', 'SSE /v1/text-to-speech/stream', async (org, text) => ({
      path: '/v1/text-to-speech/stream',
      headers: { 'x-api-key': org.key },
      body: { text, voice_id: await vendorBVoice(org.vendorKey), codec: 'pcm', sample_rate: 16000 },
    })),
    mirrorHttp('vendor_c', 'REST /v1/text-to-speech/{voice}/stream', async (org, text) => ({
      path: `/v1/text-to-speech/${await vendorCVoice(org.vendorKey)}/stream?output_format=pcm_16000`,
      headers: { 'vendor_c-api-key': org.key },
      body: { text, model_id: 'c_model_1' },
    })),
    mirrorHttp('vendor_c', 'REST /v1/text-to-speech/{voice}/stream/with-timestamps', async (org, text) => ({
      path: `/v1/text-to-speech/${await vendorCVoice(org.vendorKey)}/stream/with-timestamps?output_format=pcm_16000`,
      headers: { 'vendor_c-api-key': org.key },
      body: { text, model_id: 'c_model_1' },
    })),
    mirrorSocket('vendor_c', 'socket stream-input', {
      path: async (org) =>
        `/v1/text-to-speech/${await vendorCVoice(org.vendorKey)}/stream-input?model_id=c_model_1&output_format=pcm_16000`,
      headers: (org) => ({ 'vendor_c-api-key': org.key }),
      messages: async (_org, text) => [
        { text: ' ', voice_settings: { stability: 0.5, similarity_boost: 0.75 } },
        { text },
        { text: '' },
      ],
      done: (f) => f['isFinal'] === true,
      error: (f) => typeof f['error'] === 'string' && typeof f['message'] === 'string',
      audio: (f) => base64(f['audio']),
    }),
    mirrorHttp('vendor_d', 'REST /v1/audio/speech', async (org, text) => ({
      path: '/v1/audio/speech',
      headers: { authorization: `Bearer ${org.key}` },
      body: { model: 'd_model_3', voice: 'brook', input: text, response_format: 'pcm' },
    })),
    mirrorHttp('vendor_d', 'SSE /v1/audio/speech', async (org, text) => ({
      path: '/v1/audio/speech',
      headers: { authorization: `Bearer ${org.key}` },
      body: { model: 'd_model_3', voice: 'brook', input: text, response_format: 'pcm', stream_format: 'sse' },
    })),
    mirrorHttp('vendor_e', 'REST /v1/speak', async (org, text) => ({
      path: '/v1/speak?encoding=linear16&container=none&sample_rate=16000',
      headers: { authorization: `Token ${org.key}` },
      body: { text },
    })),
    mirrorSocket('vendor_e', 'socket /v1/speak', {
      path: '/v1/speak',
      query: { encoding: 'linear16', sample_rate: '16000' },
      headers: (org) => ({ authorization: `Token ${org.key}` }),
      messages: async (_org, text) => [{ type: 'Speak', text }, { type: 'Flush' }],
      done: (f) => f['type'] === 'Flushed',
      error: (f) => f['type'] === 'Error',
      audio: () => undefined,
    }),
    mirrorHttp('vendor_f', 'REST /v1/tts', async (org, text) => ({
      path: '/v1/tts',
      headers: { authorization: `Bearer ${org.key}` },
      body: { text, output_format: { codec: 'pcm', sample_rate: 16000 } },
    })),
    mirrorSocket('vendor_f', 'socket /v1/tts', {
      path: '/v1/tts',
      query: { codec: 'pcm', sample_rate: '16000' },
      headers: (org) => ({ authorization: `Bearer ${org.key}` }),
      messages: async (_org, text) => [{ type: 'text.delta', delta: text }, { type: 'text.done' }],
      done: (f) => f['type'] === 'audio.done',
      error: (f) => f['type'] === 'error',
      audio: (f) => (f['type'] === 'audio.delta' ? base64(f['delta']) : undefined),
    }),
    mirrorHttp('vendor_g', 'REST /tts', async (org, text) => ({
      path: '/tts',
      headers: { authorization: `Bearer ${org.key}` },
      body: { text, voice: 'Maren', audio_format: 'pcm_s16le', sample_rate: 16000 },
    })),
    mirrorSocket('vendor_g', 'socket /tts-websocket', {
      path: '/tts-websocket',
      headers: () => ({}),
      messages: async (org, text) => [
        {
          api_key: org.key,
          stream_id: 's1',
          model: 'g_model_3',
          language: 'en',
          voice: 'Maren',
          audio_format: 'pcm_s16le',
          sample_rate: 16000,
        },
        { stream_id: 's1', text, text_end: false },
        { stream_id: 's1', text: '', text_end: true },
      ],
      done: (f) => f['terminated'] === true,
      error: (f) => f['error_code'] !== undefined,
      audio: (f) => base64(f['audio']),
    }),
    mirrorHttp('vendor_h', 'REST /waves/v1/tts', async (org, text) => ({
      path: '/waves/v1/tts',
      headers: { authorization: `Bearer ${org.key}` },
      body: { text, voice_id: 'h1_voice_f1', output_format: 'pcm', sample_rate: 16000 },
    })),
    mirrorHttp('vendor_h', 'SSE /waves/v1/tts/live', async (org, text) => ({
      path: '/waves/v1/tts/live',
      headers: { authorization: `Bearer ${org.key}` },
      body: { text, voice_id: 'h1_voice_f1', sample_rate: 16000 },
    })),
    mirrorSocket('vendor_h', 'socket /waves/v1/tts/live', {
      path: '/waves/v1/tts/live',
      headers: (org) => ({ authorization: `Bearer ${org.key}` }),
      messages: async (_org, text) => [{ voice_id: 'h1_voice_f1', text, sample_rate: 16000 }],
      done: (f) => f['status'] === 'complete',
      error: (f) => f['status'] === 'error',
      audio: (f) => (f['status'] === 'chunk' ? base64(f['data']?.['audio']) : undefined),
    }),
    mirrorHttp('vendor_i', 'REST /tts/bytes', async (org, text) => ({
      path: '/tts/bytes',
      headers: { 'x-api-key': org.key, ...VENDOR_I },
      body: await vendorIBody(org, text),
    })),
    mirrorHttp('vendor_i', 'SSE /tts/sse', async (org, text) => ({
      path: '/tts/sse',
      headers: { 'x-api-key': org.key, ...VENDOR_I },
      body: await vendorIBody(org, text),
    })),
    mirrorSocket('vendor_i', 'socket /tts/websocket', {
      path: '/tts/websocket',
      headers: (org) => ({ 'x-api-key': org.key, ...VENDOR_I }),
      messages: async (org, text) => [
        { ...(await vendorIBody(org, text)), context_id: 'c', continue: false },
      ],
      done: (f) => f['type'] === 'done',
      error: (f) => f['type'] === 'error',
      audio: (f) => (f['type'] === 'chunk' ? base64(f['data']) : undefined),
    }),
    mirrorHttp('vendor_j', 'REST generateContent', async (org, text) => ({
      path: '/v1beta/models/j_model_1:generateContent',
      headers: { 'x-vendor_j-api-key': org.key },
      body: vendorJBody(text),
    })),
    mirrorHttp('vendor_j', 'SSE streamGenerateContent', async (org, text) => ({
      path: '/v1beta/models/j_model_1:streamGenerateContent?alt=sse',
      headers: { 'x-vendor_j-api-key': org.key },
      body: vendorJBody(text),
    })),
  ];

  return [...VENDOR_IDS.flatMap((v) => [native(v), stream(v)]), ...mirrors];
}
