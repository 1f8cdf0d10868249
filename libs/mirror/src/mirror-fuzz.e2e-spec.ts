import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { call, createOrgWithVendorKey, httpOk, readE2eStack } from '@router/testing';
import { VENDOR_ENTRIES, VENDOR_IDS } from '@router/vendors';
import {
  fuzzBody,
  fuzzHeaders,
  fuzzMessage,
  fuzzQuery,
  fuzzSocket,
  handshakeRequest,
  keyPlacementOf,
  onRequestLine,
  openingOf,
  pathMatching,
  plainPath,
  queryString,
  type RawAnswer,
  sendPipelined,
  sendRaw,
  socketLosingKey,
  type SocketOutcome,
  VendorShapes,
  withId,
} from './test/mirror-fuzz.kit';

const stack = readE2eStack();
/** Cases per property; `MIRROR_FUZZ_RUNS` raises it for a longer hunt (fast-check prints the seed of a failure). */
const RUNS = Number(process.env['MIRROR_FUZZ_RUNS'] ?? 25);
const MIRRORS = VENDOR_IDS.flatMap((id) => VENDOR_ENTRIES[id].mirror ?? []);
const DEEP = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const METHODS_NOT_GET = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/**
 * One sentence asked for on each socket as its vendor's clients ask (the query they open it with, then their
 * messages), for the tests that need a sentence's audio or its failure. Every socket route in the registry
 * must have one: the suite fails for a route without, so a new mirror's socket is covered once it is added.
 */
const SENTENCE: Readonly<Record<string, { query?: Array<[string, string]>; messages: object[] }>> = {
  'vendor_a ^\\/text-to-speech\\/ws$': {
    query: [['model', 'a_model_1']],
    messages: [
      { type: 'config', data: { target_language_code: 'hi-IN', speaker: 'aarila' } },
      { type: 'text', data: { text: 'Hello there.' } },
      { type: 'flush' },
    ],
  },
  'vendor_a ^\\/text-to-speech\\/ws\\/v2$': {
    query: [['model', 'a_model_2']],
    messages: [
      { type: 'config', data: { target_language_code: 'en-IN', speaker: 'vanshira' } },
      { type: 'text', data: { text: 'Hello there.' } },
      { type: 'flush' },
    ],
  },
  'vendor_c ^\\/v1\\/text-to-speech\\/([^/]+)\\/stream-input$': {
    query: [
      ['model_id', 'c_model_1'],
      ['output_format', 'pcm_16000'],
    ],
    messages: [{ text: ' ' }, { text: 'Hello there. ' }, { text: '' }],
  },
  'vendor_c ^\\/v1\\/text-to-speech\\/([^/]+)\\/multi-stream-input$': {
    query: [
      ['model_id', 'c_model_1'],
      ['output_format', 'pcm_16000'],
    ],
    messages: [
      { text: ' ', context_id: 'a' },
      { text: 'Hello there. ', context_id: 'a', flush: true },
    ],
  },
  'vendor_c ^\\/v1\\/text-to-dialogue\\/multi-stream-input$': {
    query: [
      ['model_id', 'c_model_8'],
      ['output_format', 'pcm_16000'],
    ],
    messages: [{ inputs: [{ text: 'Hello there. ', voice_id: 'id1' }] }, { close_socket: true }],
  },
  'vendor_e ^\\/v1\\/speak$': {
    query: [
      ['model', 'e_model_1-orla-en'],
      ['encoding', 'linear16'],
      ['sample_rate', '24000'],
    ],
    messages: [{ type: 'Speak', text: 'Hello there.' }, { type: 'Flush' }],
  },
  'vendor_e ^\\/v2\\/speak$': {
    query: [['model', 'e_model_3-orla-en']],
    messages: [{ type: 'Speak', text: 'Hello there.' }, { type: 'Flush' }],
  },
  'vendor_f ^\\/v1\\/tts$': {
    query: [
      ['voice', 'coral'],
      ['codec', 'pcm'],
      ['sample_rate', '16000'],
    ],
    messages: [{ type: 'text.delta', delta: 'Hello there.' }, { type: 'text.done' }],
  },
  'vendor_g ^\\/tts-websocket$': {
    messages: [
      {
        stream_id: 's1',
        model: 'g_model_3',
        language: 'en',
        voice: 'Maren',
        audio_format: 'pcm_s16le',
        sample_rate: 24000,
      },
      { stream_id: 's1', text: 'Hello there.', text_end: false },
      { stream_id: 's1', text: '', text_end: true },
    ],
  },
  'vendor_h ^\\/waves\\/v1\\/tts\\/live$': {
    messages: [{ voice_id: 'h1_voice_f1', text: 'Hello there.', sample_rate: 16000, output_format: 'pcm' }],
  },
  'vendor_i ^\\/tts\\/websocket$': {
    messages: [
      {
        model_id: 'i_model_2',
        transcript: 'Hello there.',
        voice: { mode: 'id', id: 'id1' },
        output_format: { container: 'raw', encoding: 'pcm_s16le', sample_rate: 24000 },
        language: 'en',
        context_id: 'c1',
        continue: false,
      },
    ],
  },
};

/** Whether a text frame names a key (its long strings, such as audio, left out). */
function namesKey(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return /key/i.test(text);
  }
  return /key/i.test(
    JSON.stringify(value, (_name, field: unknown) =>
      typeof field === 'string' && field.length > 300 ? undefined : field,
    ),
  );
}

/**
 * Every mirror in the registry, fuzzed through the gateway as a hostile client would: its REST endpoints
 * (paths, queries, headers, bodies) and its sockets (paths, queries, messages), with the router key where the
 * vendor takes it and without. The rules: never a 5xx, never a 1011 (or a socket cut without a close) for bad
 * input, never a hang, every refusal in the vendor's shape, and every app process alive afterwards. The inputs
 * that once ended a process are fixed cases.
 */
describe.each(MIRRORS.map((mirror) => [mirror.vendor, mirror] as const))(
  'mirror fuzz: %s (e2e)',
  (vendor, mirror) => {
    const base = `/${vendor}`;
    const shapes = new VendorShapes(mirror);
    const placement = keyPlacementOf(mirror.access);
    let key = '';

    beforeAll(async () => {
      ({ key } = await createOrgWithVendorKey(stack, vendor, `fuzz-${vendor}-${randomUUID().slice(0, 8)}`));
    });

    /** The key's headers and query parameters for a case: the org's key, a key that is not one, or none. */
    function keyed(how: 'key' | 'wrong' | 'none'): {
      headers: Record<string, string>;
      query: Array<[string, string]>;
    } {
      const sent = how === 'key' ? key : how === 'wrong' ? 'rtr_not_a_key' : undefined;
      if (sent === undefined) return { headers: {}, query: [] };
      return { headers: placement.headers(sent), query: placement.query(sent) };
    }

    function checkHttp(answer: RawAnswer): void {
      if (answer.status >= 500)
        throw new Error(`a 5xx: ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`);
      if (answer.status >= 400) {
        const mismatch = shapes.httpMismatch(answer);
        if (mismatch) throw new Error(mismatch);
      }
    }

    function checkSocket(outcome: SocketOutcome): void {
      if (outcome.kind === 'refused') return checkHttp(outcome.answer);
      if (outcome.code === 1011 || outcome.code === 1006) {
        throw new Error(
          `the socket ended with ${outcome.code}; frames: ${outcome.frames.slice(-3).join(' | ')}`,
        );
      }
      const last = outcome.frames.at(-1);
      if (outcome.by === 'server' && outcome.code !== 1000 && last !== undefined) {
        const mismatch = shapes.socketMismatch(last);
        if (mismatch) throw new Error(mismatch);
      }
    }

    const how = fc.constantFrom<'key' | 'wrong' | 'none'>('key', 'key', 'wrong', 'none');

    it('answers any request to its REST endpoints without a 5xx or a hang, refusing in its shape', async () => {
      const endpoint = fc.constantFrom(...mirror.dropIn.endpoints);
      const input = endpoint.chain((e) =>
        fc.record({
          method: fc.constant(e.method),
          path: pathMatching(e.path),
          query: fuzzQuery,
          headers: fuzzHeaders,
          body: fuzzBody,
          how,
        }),
      );
      await fc.assert(
        fc.asyncProperty(input, async ({ method, path, query, headers, body, how: keyedHow }) => {
          const key = keyed(keyedHow);
          const answer = await sendRaw(stack.gatewayUrl, {
            method,
            target: `${base}${path}${queryString([...query, ...key.query])}`,
            headers: [...headers, ...Object.entries(key.headers)],
            ...(body && method !== 'GET' ? { body } : {}),
          });
          checkHttp(answer);
        }),
        { numRuns: RUNS },
      );
    });

    it('answers paths it does not have, any method, in its shape', async () => {
      const input = fc.record({
        method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
        path: fc.oneof(
          fc
            .array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 5 })
            .map((parts) => `/${parts.join('/')}`),
          fc
            .constantFrom(...mirror.dropIn.endpoints)
            .chain((e) => pathMatching(e.path))
            .map((p) => `${p}/more`),
        ),
        body: fuzzBody,
        how,
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ method, path, body, how: keyedHow }) => {
          const key = keyed(keyedHow);
          const answer = await sendRaw(stack.gatewayUrl, {
            method,
            target: `${base}${onRequestLine(path)}${queryString(key.query)}`,
            headers: Object.entries(key.headers),
            ...(body && method !== 'GET' ? { body } : {}),
          });
          checkHttp(answer);
        }),
        { numRuns: RUNS },
      );
    });

    it('takes any socket handshake and messages without a 1011, a cut or a hang, refusing in its shape', async () => {
      if (mirror.sockets.length === 0) return;
      const route = fc.constantFrom(...mirror.sockets);
      const input = route.chain((r) =>
        fc.record({
          path: pathMatching(r.path),
          opening: openingOf(r),
          query: fuzzQuery,
          messages: fc.array(fuzzMessage, { maxLength: 6 }),
          how,
        }),
      );
      await fc.assert(
        fc.asyncProperty(input, async ({ path, opening, query, messages, how: keyedHow }) => {
          const key = keyed(keyedHow);
          const target = `${base}${path}${queryString([...(opening.query ?? []), ...query, ...key.query])}`;
          const headers = { ...opening.headers, ...key.headers };
          checkSocket(await fuzzSocket(stack.gatewayUrl, target, headers, messages));
        }),
        { numRuns: RUNS },
      );
    });

    it('opens each socket its clients open with more than the key as they do, and closes it normally', async () => {
      const { headers, query } = keyed('key');
      for (const route of mirror.sockets) {
        for (const opening of route.openings ?? []) {
          const target = `${base}${plainPath(route.path)}${queryString([...(opening.query ?? []), ...query])}`;
          const outcome = await fuzzSocket(stack.gatewayUrl, target, { ...opening.headers, ...headers }, []);
          expect(outcome).toMatchObject({ kind: 'closed', by: 'client', code: 1000 });
        }
      }
    });

    it('refuses a socket on a path it has no socket for at the handshake, with its 404', async () => {
      const socketPath = (path: string): boolean =>
        mirror.sockets.some((s) => s.path.test(path.split('?')[0] ?? ''));
      const paths = fc
        .oneof(
          fc.constantFrom(...mirror.dropIn.endpoints).chain((e) => pathMatching(e.path)),
          fc
            .constantFrom(...(mirror.sockets.length > 0 ? mirror.sockets : [{ path: /^\/x$/ }]))
            .chain((s) => pathMatching(s.path).map((p) => `${p}/more`)),
          fc
            .array(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { minLength: 1, maxLength: 4 })
            .map((parts) => `/${parts.join('/')}`),
        )
        .filter((path) => !socketPath(path));
      await fc.assert(
        fc.asyncProperty(paths, how, async (path, keyedHow) => {
          const key = keyed(keyedHow);
          const outcome = await fuzzSocket(
            stack.gatewayUrl,
            `${base}${path}${queryString(key.query)}`,
            key.headers,
            [],
          );
          expect(outcome.kind).toBe('refused');
          if (outcome.kind !== 'refused') return;
          expect(outcome.answer.status).toBe(404);
          expect(shapes.httpMismatch(outcome.answer)).toBeUndefined();
        }),
        { numRuns: RUNS },
      );
    });

    it('refuses a socket handshake sent with another method than GET with its 405, and serves the request after it', async () => {
      if (mirror.sockets.length === 0) return;
      const input = fc.record({
        route: fc.constantFrom(...mirror.sockets),
        method: fc.constantFrom(...METHODS_NOT_GET),
        query: fuzzQuery,
        body: fc.option(
          fc.string({ maxLength: 200 }).map((text) => Buffer.from(text)),
          { nil: undefined },
        ),
        how,
      });
      await fc.assert(
        fc.asyncProperty(input, async ({ route, method, query, body, how: keyedHow }) => {
          const key = keyed(keyedHow);
          const target = `${base}${plainPath(route.path)}${queryString([...query, ...key.query])}`;
          const answers = await sendPipelined(stack.gatewayUrl, [
            handshakeRequest(method, target, key.headers, body),
            Buffer.from('GET /healthz HTTP/1.1\r\nHost: router\r\nConnection: close\r\n\r\n'),
          ]);
          expect(answers.map((answer) => answer.status)).toEqual([405, 200]);
          const [refused] = answers;
          if (refused) checkHttp(refused);
        }),
        { numRuns: RUNS },
      );
    });

    it("names the missing key in its shape when the org's vendor key is deleted while a socket is open", async () => {
      for (const route of mirror.sockets) {
        const sentence = SENTENCE[`${vendor} ${route.path.source}`];
        expect({ route: route.path.source, sentence: sentence !== undefined }).toEqual({
          route: route.path.source,
          sentence: true,
        });
        if (!sentence) continue;
        // An org of this test's own: its key is deleted.
        const org = await createOrgWithVendorKey(stack, vendor, `fuzz-${vendor}-${randomUUID().slice(0, 8)}`);
        const opening = route.openings?.[0] ?? {};
        const target = `${base}${plainPath(route.path)}${queryString([
          ...(opening.query ?? []),
          ...(sentence.query ?? []),
          ...placement.query(org.key),
        ])}`;
        const outcome = await socketLosingKey(
          stack.gatewayUrl,
          target,
          { ...opening.headers, ...placement.headers(org.key) },
          async () => {
            const deleted = await call(stack.gatewayUrl, 'DELETE', `/v1/provider-keys/${vendor}`, {
              key: org.key,
            });
            expect(deleted.status).toBe(204);
          },
          sentence.messages.map((message) => JSON.stringify(message)),
          (texts) => texts.some(namesKey),
        );
        const said = { route: route.path.source, end: outcome.end, texts: outcome.texts };
        // No crash of the router's: never 1011 (or a cut), and the key problem named in a frame or the close.
        expect(said.end).not.toMatchObject({ code: 1011 });
        expect(said.end).not.toMatchObject({ code: 1006 });
        const naming = outcome.texts.find(namesKey);
        expect({
          ...said,
          named: naming !== undefined || /key/i.test(said.end.reason),
        }).toMatchObject({
          named: true,
        });
      }
    });

    describe('inputs that once ended a process', () => {
      /** Each socket route once, its ids plain. */
      const sockets = (): string[] => mirror.sockets.map((s) => plainPath(s.path));

      it('a first message carrying a key field beside 20,000 levels of nesting, without a key', async () => {
        for (const path of sockets()) {
          for (const field of ['authorization', 'api_key', `${vendor}_api_key`]) {
            const message = `{"${field}":"x","x":${DEEP(20_000)}}`;
            checkSocket(await fuzzSocket(stack.gatewayUrl, `${base}${path}`, {}, [message]));
          }
        }
      });

      it('a later message with a key field beside 20,000 levels of nesting, on a keyed socket', async () => {
        for (const path of sockets()) {
          const message = `{"authorization":"Bearer ${key}","${vendor}_api_key":"${key}","x":${DEEP(20_000)}}`;
          const { headers, query } = keyed('key');
          checkSocket(
            await fuzzSocket(stack.gatewayUrl, `${base}${path}${queryString(query)}`, headers, [
              '{}',
              message,
            ]),
          );
        }
      });

      it('a malformed percent-escape in a socket path, with a key', async () => {
        const { headers, query } = keyed('key');
        for (const route of mirror.sockets) {
          for (const segment of ['%ZZ', '%E0%A4']) {
            const path = withId(route.path, plainPath(route.path), segment);
            if (!path) continue; // a socket path without ids
            const outcome = await fuzzSocket(
              stack.gatewayUrl,
              `${base}${path}${queryString(query)}`,
              headers,
              ['{"text":" "}', '{"text":"Hello there. ","flush":true}'],
            );
            checkSocket(outcome);
          }
        }
      });

      it('REST bodies nesting 5,000 levels deep and numbers past a double, on every endpoint', async () => {
        const { headers, query } = keyed('key');
        for (const endpoint of mirror.dropIn.endpoints.filter((e) => e.method !== 'GET')) {
          const path = plainPath(endpoint.path);
          for (const body of [`{"text":"Hello.","x":${DEEP(5000)}}`, '{"text":"Hello.","seed":1e400}']) {
            const answer = await sendRaw(stack.gatewayUrl, {
              method: endpoint.method,
              target: `${base}${path}${queryString(query)}`,
              headers: [['content-type', 'application/json'], ...Object.entries(headers)],
              body: Buffer.from(body),
            });
            checkHttp(answer);
            expect(answer.status).toBeGreaterThanOrEqual(400);
          }
        }
      });
    });

    afterAll(async () => {
      // Every app of the stack still answers: no input ended a process.
      for (const [app, port] of Object.entries(stack.ports)) {
        expect({ app, alive: await httpOk(`http://127.0.0.1:${port}/healthz`) }).toEqual({
          app,
          alive: true,
        });
      }
    });
  },
);
