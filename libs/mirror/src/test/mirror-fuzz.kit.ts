import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import fc from 'fast-check';
import { type RawAnswer, TestSocket } from '@router/testing';
import {
  MIRROR_REFUSAL_KINDS,
  type MirrorAccess,
  type MirrorReply,
  placeKey,
  type MirrorRequest,
  type MirrorSocketRoute,
  type SocketOpening,
  unreadableMessageRefusal,
  type VendorMirror,
} from '@router/vendors-core';

/*
 * The mirror fuzz kit: hostile inputs for any vendor's mirror, derived from its `VendorMirror` alone (its
 * endpoints, socket paths, key placement and refusal shapes), and the checks every answer must pass. A mirror
 * added to the registry is fuzzed without a test of its own.
 */

/** How long one request or socket may take before it counts as a hang. */
export const FUZZ_HANG_MS = 15_000;

/** A request as sent on the wire, byte for byte (the path is not normalised by any URL parser). */
export interface RawRequest {
  method: string;
  /** Path and query, as they go on the request line. */
  target: string;
  headers: ReadonlyArray<readonly [string, string]>;
  body?: Buffer;
}

export type { RawAnswer };

/** Sends `request` to `origin` as written; rejects on a hang (no whole answer within FUZZ_HANG_MS). */
export function sendRaw(origin: string, request: RawRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    // Repeated names go as one name with several values (a flat list would make Node add its own framing).
    const headers: Record<string, string[]> = {};
    for (const [name, value] of request.headers) (headers[name.toLowerCase()] ??= []).push(value);
    if (request.body) headers['content-length'] = [String(request.body.length)];
    const req = httpRequest({
      host: hostname,
      port,
      method: request.method,
      path: request.target,
      headers,
      setHost: true,
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`hang: no whole answer within ${FUZZ_HANG_MS} ms`));
    }, FUZZ_HANG_MS);
    req.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      res.once('end', () => {
        clearTimeout(timer);
        const type = res.headers['content-type'];
        resolve({ status: res.statusCode ?? 0, contentType: type, body: Buffer.concat(chunks) });
      });
    });
    req.end(request.body);
  });
}

/** How a fuzzed socket went: refused at the handshake, or opened and then closed by one side. */
export type SocketOutcome =
  | { kind: 'refused'; answer: RawAnswer }
  | { kind: 'closed'; by: 'server' | 'client'; code: number; frames: string[] };

/**
 * Opens a socket at `target`, sends `messages` one after another, gives the server `settleMs` to answer,
 * then closes (unless the server did). Rejects on a hang: a handshake or a close that does not complete
 * within FUZZ_HANG_MS.
 */
export async function fuzzSocket(
  origin: string,
  target: string,
  headers: Readonly<Record<string, string>>,
  messages: ReadonlyArray<string | Buffer>,
  settleMs = 300,
): Promise<SocketOutcome> {
  const socket = new TestSocket(`${origin.replace(/^http/, 'ws')}${target}`, { headers });
  const run = async (): Promise<SocketOutcome> => {
    const handshake = await socket.handshake;
    if (handshake.kind === 'refused') return handshake;
    for (const message of messages) {
      if (!socket.open) break;
      socket.send(message);
      await pause(20);
    }
    await pause(settleMs);
    if (socket.open) socket.close(1000);
    const { by, code } = await socket.closed;
    return { kind: 'closed', by, code, frames: socket.texts };
  };
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`hang: the socket did not finish within ${FUZZ_HANG_MS} ms`));
    }, FUZZ_HANG_MS);
  });
  const outcome = run();
  outcome.catch(() => undefined); // after a hang, the socket's end is no one's to report
  try {
    return await Promise.race([outcome, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Writes `requests` (whole HTTP requests, pipelined on one connection) to `origin` as they are, and reads
 * until the connection closes: every answer, split at each status line. Rejects on a hang.
 */
export function sendPipelined(origin: string, requests: readonly Buffer[]): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`hang: the connection was not closed within ${FUZZ_HANG_MS} ms`));
    }, FUZZ_HANG_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(splitAnswers(Buffer.concat(chunks)));
    });
    socket.write(Buffer.concat(requests));
  });
}

/** The HTTP/1.1 answers in `bytes`, one after another, each framed by its `content-length`. */
function splitAnswers(bytes: Buffer): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', at);
    if (headEnd === -1) break;
    const head = bytes.subarray(at, headEnd).toString('latin1').split('\r\n');
    const header = (name: string): string | undefined =>
      head
        .find((line) => line.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    const length = Number(header('content-length') ?? 0);
    const body = bytes.subarray(headEnd + 4, headEnd + 4 + length);
    answers.push({ status: Number(head[0]?.split(' ')[1] ?? 0), contentType: header('content-type'), body });
    at = headEnd + 4 + length;
  }
  return answers;
}

/** A WebSocket handshake request as a client writes it, with `method` in place of GET, and its body. */
export function handshakeRequest(
  method: string,
  target: string,
  headers: Readonly<Record<string, string>>,
  body: Buffer = Buffer.alloc(0),
): Buffer {
  const lines = [
    `${method} ${target} HTTP/1.1`,
    'Host: router',
    'Connection: Upgrade',
    'Upgrade: websocket',
    'Sec-WebSocket-Version: 13',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${body.length}`,
  ];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]);
}

/** How a socket went whose vendor key was taken away while it was open. */
export interface KeyLossOutcome {
  /**
   * Who closed it: the server, or the client once `done` held; the code and reason the client received
   * (a server's close crossing the client's is the server's).
   */
  readonly end: { by: 'server' | 'client'; code: number; reason: string };
  /** Every text frame the server sent. */
  readonly texts: string[];
}

/**
 * Opens a socket at `target`, runs `meanwhile` once it is open (the vendor key deleted), sends `messages`,
 * and waits until `done` holds of the text frames so far or the server closes; then closes it. Rejects on a
 * hang (neither within FUZZ_HANG_MS).
 */
export async function socketLosingKey(
  origin: string,
  target: string,
  headers: Readonly<Record<string, string>>,
  meanwhile: () => Promise<void>,
  messages: readonly string[],
  done: (texts: readonly string[]) => boolean,
): Promise<KeyLossOutcome> {
  const socket = new TestSocket(`${origin.replace(/^http/, 'ws')}${target}`, { headers });
  const handshake = await socket.handshake;
  if (handshake.kind === 'refused') {
    throw new Error(
      `the handshake was refused: ${handshake.answer.status} ${handshake.answer.body.toString()}`,
    );
  }
  await meanwhile();
  for (const message of messages) socket.send(message);
  const deadline = Date.now() + FUZZ_HANG_MS;
  let closed: { code: number; reason: string } | undefined;
  void socket.closed.then((end) => (closed = { code: end.code, reason: end.reason }));
  while (closed === undefined && !done(socket.texts)) {
    if (Date.now() > deadline) {
      socket.terminate();
      throw new Error(
        `hang: no answer to the sentence within ${FUZZ_HANG_MS} ms: ${socket.texts.join(' | ')}`,
      );
    }
    await pause(25);
  }
  // The frames that came with the close are all in by now (a close frame comes after them).
  if (closed !== undefined) return { end: { by: 'server', ...closed }, texts: socket.texts };
  socket.close(1000);
  const { code, reason } = await socket.closed;
  return { end: { by: 'client', code, reason }, texts: socket.texts };
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Where a client puts the key for this vendor: the first of its declared placements, as its own clients do. */
export interface KeyPlacement {
  headers(key: string): Record<string, string>;
  query(key: string): Array<[string, string]>;
}

export function keyPlacementOf(access: MirrorAccess): KeyPlacement {
  const [first] = access.keyPlacements;
  return {
    headers: (key) => ({ ...placeKey(first, key).headers }),
    query: (key) => placeKey(first, key).query.map(([name, value]) => [name, value]),
  };
}

/**
 * What a fuzzed handshake sends besides the key: mostly one of the ways the vendor's clients open the socket
 * (`MirrorSocketRoute.openings`), so random messages reach its codec, and sometimes nothing, so its handshake
 * refusal is fuzzed too.
 */
export function openingOf(route: MirrorSocketRoute): fc.Arbitrary<SocketOpening> {
  const openings = route.openings ?? [];
  if (openings.length === 0) return fc.constant({});
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 4, arbitrary: fc.constantFrom(...openings) },
  );
}

/**
 * The shape of a refusal body: its media type and, for a JSON object, each field's kind, one level into
 * object fields (`detail:{code,message}`). Two bodies of one shape differ only in their values.
 */
interface Shape {
  type: string;
  fields?: ReadonlyMap<string, string>;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return `{${Object.keys(value).sort().join(',')}}`;
  return typeof value;
}

function shapeOf(contentType: string | undefined, body: string): Shape {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (body.length === 0) return { type: `${type}|empty` };
  if (!type.endsWith('json')) return { type: `${type}|text` };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { type: `${type}|not json` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { type: `${type}|${kindOf(value)}` };
  return { type, fields: new Map(Object.entries(value).map(([name, field]) => [name, kindOf(field)])) };
}

/** Whether `observed` has every field of `known` with its kind (an object field at least `known`'s fields). */
function fits(observed: Shape, known: Shape): boolean {
  if (observed.type !== known.type) return false;
  if (!known.fields || !observed.fields) return !known.fields && !observed.fields;
  for (const [name, kind] of known.fields) {
    const seen = observed.fields.get(name);
    if (seen === undefined) return false;
    if (kind.startsWith('{') && seen.startsWith('{')) {
      const need = kind.slice(1, -1).split(',').filter(Boolean);
      const have = new Set(seen.slice(1, -1).split(','));
      if (!need.every((field) => have.has(field))) return false;
    } else if (seen !== kind) return false;
  }
  return true;
}

/** The shapes the vendor refuses in, over HTTP and on its sockets, as its folder writes them. */
export class VendorShapes {
  private readonly http: Shape[];
  private readonly socket: Shape[];

  constructor(mirror: VendorMirror) {
    // A bare request, and one opened each way the vendor's clients open its sockets (a version can change the
    // shape of its refusals).
    const openings: SocketOpening[] = [{}, ...mirror.sockets.flatMap((route) => route.openings ?? [])];
    const requests = openings.map((opening): MirrorRequest => ({
      method: 'POST',
      path: '/',
      headers: { ...opening.headers },
      query: new URLSearchParams(opening.query?.map(([name, value]): [string, string] => [name, value])),
    }));
    const replies: MirrorReply[] = [
      ...requests.flatMap((request) => [
        ...MIRROR_REFUSAL_KINDS.map((kind) => mirror.access.refuse(kind, request)),
        ...[400, 401, 413, 422, 500].map((status) => mirror.access.fail(status, 'a failure', request)),
        mirror.access.notFound(request),
      ]),
      mirror.dropIn.invalidBody({ field: 'field', message: 'a rule' }),
      // A socket route's refusal of a bare handshake (one without the settings its clients must send).
      ...mirror.sockets.flatMap(
        (route) => route.refuse?.({ params: [], query: new URLSearchParams(), headers: {} }) ?? [],
      ),
    ];
    this.http = replies.map((reply) => shapeOf(reply.headers['content-type'], reply.body));
    const socket = mirror.access.socket;
    this.socket =
      socket.refusal === 'after-accept'
        ? [
            ...MIRROR_REFUSAL_KINDS.flatMap((kind) => socket.refuse(kind, undefined).messages),
            ...unreadableMessageRefusal(socket, 'a rule').messages,
          ].map((message) => shapeOf('application/json', message))
        : [];
  }

  /** Why an HTTP refusal is not in the vendor's shape, or undefined when it is. */
  httpMismatch(answer: RawAnswer): string | undefined {
    const body = answer.body.toString('utf8');
    const shape = shapeOf(answer.contentType, body);
    return this.http.some((known) => fits(shape, known))
      ? undefined
      : `${answer.status} ${answer.contentType ?? '(no type)'} is not the vendor's shape: ${body.slice(0, 300)}`;
  }

  /** Why an error frame before a refusing close is not in the vendor's shape, or undefined when it is. */
  socketMismatch(frame: string): string | undefined {
    if (this.socket.length === 0) return undefined;
    const shape = shapeOf('application/json', frame);
    return this.socket.some((known) => fits(shape, known))
      ? undefined
      : `socket frame is not the vendor's refusal shape: ${frame.slice(0, 300)}`;
  }
}

/**
 * A path as a client could put it on the request line: characters a request line cannot carry, or that would
 * end the path (`?`, `#`), percent-encoded; a `%` left as it is, so malformed escapes reach the router.
 */
export function onRequestLine(path: string): string {
  return path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (char) => encodeURIComponent(char));
}

/** Path segments that broke routers before: malformed and overlong escapes, dots, encoded slashes. */
const HOSTILE_SEGMENTS = ['%ZZ', '%E0%A4', '%', '%2F', '%00', '..', '.', '%C0%AE', 'a%2Fb', '%FF%FE'];

/**
 * `path` (matching `pattern`) with its first id (capture group) replaced by `segment`, or undefined when the
 * pattern has no id or would not take the segment there.
 */
export function withId(pattern: RegExp, path: string, segment: string): string | undefined {
  const span = new RegExp(pattern.source, `${pattern.flags}d`).exec(path)?.indices?.[1];
  if (!span) return undefined;
  const swapped = `${path.slice(0, span[0])}${segment}${path.slice(span[1])}`;
  return pattern.test(swapped) ? swapped : undefined;
}

/** One plain path matching `pattern` (ids of letters and digits where the pattern allows them). */
export function plainPath(pattern: RegExp): string {
  const [path] = fc.sample(fc.stringMatching(pattern), { numRuns: 1, seed: 42 });
  if (path === undefined) throw new Error(`no path matches ${String(pattern)}`);
  return onRequestLine(withId(pattern, path, 'id1') ?? path);
}

/** A path matching `pattern`, its ids (capture groups) any text or, as often, a hostile segment. */
export function pathMatching(pattern: RegExp): fc.Arbitrary<string> {
  const hostile = fc
    .tuple(fc.stringMatching(pattern), fc.constantFrom(...HOSTILE_SEGMENTS))
    .map(([path, segment]) => withId(pattern, path, segment) ?? path);
  return fc.oneof(fc.stringMatching(pattern), hostile).map(onRequestLine);
}

/** Field names from the vendors' bodies and messages, so some inputs get past the first check. */
const FIELD_NAMES = [
  'text',
  'model_id',
  'model',
  'voice_id',
  'voice',
  'input',
  'transcript',
  'speaker',
  'language',
  'language_code',
  'output_format',
  'response_format',
  'sample_rate',
  'codec',
  'encoding',
  'container',
  'voice_settings',
  'stability',
  'similarity_boost',
  'speed',
  'seed',
  'context_id',
  'flush',
  'close_context',
  'close_socket',
  'generation_config',
  'pronunciation_dictionary_locators',
  'inputs',
  'settings',
  'type',
  'authorization',
  'api_key',
  'contents',
  'generationConfig',
  'instructions',
  'stream_format',
  'config',
  'continue',
  'cancel',
  'data',
  'delta',
  'playback_offset',
];
const QUERY_NAMES = [
  'output_format',
  'model_id',
  'model',
  'enable_logging',
  'optimize_streaming_latency',
  'sample_rate',
  'encoding',
  'container',
  'inactivity_timeout',
  'auto_mode',
  'sync_alignment',
  'language_code',
  'seed',
  'timeout',
  'key',
  'alt',
  'send_completion_event',
  'voice',
  'codec',
  'pageSize',
  'show_legacy',
  'speed',
  'bit_rate',
  'mip_opt_out',
  'expressivity',
  'callback',
];

const shortText = fc.string({ maxLength: 40 });
const fieldName = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FIELD_NAMES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const leaf = fc.oneof(
  shortText,
  fc.constantFrom('Hello there.', ' ', '', 'pcm_16000', 'c_model_1', 'true'),
  // Message types of the sockets whose messages name their kind in `type`.
  fc.constantFrom('Speak', 'Flush', 'Clear', 'Interrupt', 'Configure', 'Close'),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const jsonish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(fieldName, tie('value'), { maxKeys: 6 }),
})).value;

/** Text that `JSON.parse` reads as something hostile: nesting past any limit, numbers past a double's. */
const hostileJson = fc.oneof(
  fc
    .tuple(fc.constantFrom(...FIELD_NAMES), fc.integer({ min: 30, max: 6000 }))
    .map(([name, depth]) => `{"text":"Hello.","${name}":${'['.repeat(depth)}${']'.repeat(depth)}}`),
  fc.constantFrom(...FIELD_NAMES).map((name) => `{"text":"Hello.","${name}":1e400}`),
  fc.integer({ min: 30, max: 6000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.constantFrom(
    '1e400',
    '-1e400',
    '[1e999]',
    'null',
    '"text"',
    '{"__proto__":{"x":1}}',
    '{"text":"\\ud800"}',
  ),
);

/** A body: JSON objects of the vendors' fields, any JSON, hostile JSON, text and bytes. */
export const fuzzBody: fc.Arbitrary<Buffer | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fieldName, jsonish, { maxKeys: 8 }).map((value) => Buffer.from(JSON.stringify(value))),
  jsonish.map((value) => Buffer.from(JSON.stringify(value) ?? 'null')),
  hostileJson.map((text) => Buffer.from(text)),
  fc.string({ maxLength: 200 }).map((text) => Buffer.from(text)),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
);

/** A socket message: JSON of the vendors' fields, hostile JSON, text and binary frames. */
export const fuzzMessage: fc.Arbitrary<string | Buffer> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.dictionary(fieldName, jsonish, { maxKeys: 6 }).map((value) => JSON.stringify(value)),
  },
  { weight: 1, arbitrary: hostileJson },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 100 }).map((bytes) => Buffer.from(bytes)) },
);

/** A query: the vendors' parameter names (and others) with any values, some repeated. */
export const fuzzQuery: fc.Arbitrary<Array<[string, string]>> = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.string({ maxLength: 10 })),
    fc.oneof(
      shortText,
      fc.constantFrom('1e400', '-1', '99999999999999999999', '', 'true', '%ZZ', 'pcm_16000', 'linear16'),
      fc.constantFrom('e_model_1-orla-en', 'e_model_3-orla-en', '0.85', '8000'),
    ),
  ),
  { maxLength: 5 },
);

/** Extra headers: content types and encodings a body does not have, ids, junk a vendor's client may add. */
export const fuzzHeaders: fc.Arbitrary<Array<[string, string]>> = fc.array(
  fc.oneof(
    fc.tuple(
      fc.constant('content-type'),
      fc.constantFrom(
        'application/json',
        'text/plain',
        'application/json; charset=utf-16',
        'multipart/form-data',
        '*/*',
        '',
      ),
    ),
    fc.tuple(fc.constant('content-encoding'), fc.constantFrom('gzip', 'br', 'identity', 'x-junk')),
    fc.tuple(fc.constant('accept'), fc.constantFrom('audio/mpeg', 'text/event-stream', '*/*', 'junk')),
    fc.tuple(fc.constant('x-request-id'), fc.string({ maxLength: 300 }).map(printable)),
    fc.tuple(
      fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).filter((name) => !FRAMING_HEADERS.has(name)),
      fc.string({ maxLength: 60 }).map(printable),
    ),
  ),
  { maxLength: 4 },
);

/** Headers that frame the request itself (its length, its host, a 100-continue): not the vendor's to see. */
const FRAMING_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'expect',
  'connection',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
]);

/** A header value Node will send: printable ASCII only. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '');
}

/** `name=value&…` with both percent-encoded, except values meant to stay raw (`%ZZ`). */
export function queryString(pairs: ReadonlyArray<readonly [string, string]>): string {
  if (pairs.length === 0) return '';
  const encode = (text: string): string => (text === '%ZZ' ? text : encodeURIComponent(text));
  return `?${pairs.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&')}`;
}
