import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { StreamSettings } from '@router/client';
import { type AudioSpec, createTake, type InjectFault, SimControl } from '@router/vendor-sim';
import { mirrorAccess } from '@router/vendors';
import { pathWithKey, placeKey, type PlacedKey, type VendorId } from '@router/vendors-core';
import { readE2eStack } from './e2e-stack';
import { adminCli, createOrgWithKey, createOrgWithVendorKey, eventually, sayOnStream } from './router-client';
import {
  type JsonFrame,
  mirrorSocketUrl,
  openSocket,
  type ReceivedFrame,
  type SocketOptions,
  TestSocket,
} from './socket-client';
import type { StackInfo } from './stack';

/** One answer of a mirror, read whole. */
export interface MirrorAnswer {
  readonly status: number;
  /** Its `Content-Type`, or null. */
  readonly type: string | null;
  readonly headers: Headers;
  readonly bytes: Buffer;
  /** The body as UTF-8 text. */
  readonly text: string;
}

/** A mirror request: a body is sent as JSON (a string as it is), with `Content-Type: application/json`. */
export interface MirrorRequest {
  readonly method?: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A socket opened on a mirror: the query, extra handshake headers or protocols, and `tls` for `wss://`. */
export interface MirrorSocketRequest {
  readonly query?: Readonly<Record<string, string>> | string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly protocols?: readonly string[];
  readonly tls?: boolean;
}

/** An org of its own with its router key (`key`) and its own vendor key (`vendorKey`). */
export type MirrorOrg = Awaited<ReturnType<typeof createOrgWithVendorKey>>;

/** A fault as a mirror spec sets it for one vendor key: the vendor and the key are the kit's. */
export type MirrorFault = Omit<InjectFault, 'vendor' | 'key'>;

/** A take that fails at the vendor after its first 2000 bytes of audio, with a 500 and the vendor's words. */
export const TAKE_FAILS_MIDWAY = {
  kind: 'error',
  status: 500,
  afterBytes: 2000,
  message: 'The take failed.',
} as const satisfies MirrorFault;

/** A call that stalls, for good, until the fault is removed (with `afterBytes`, after that much audio). */
export const STALLS = { kind: 'stall', stallMs: null } as const satisfies MirrorFault;

/** What a replies-in-turn test's first reading is checked with: the replies said and the calls before them. */
export interface RepliesMiss {
  readonly replies: string[][];
  readonly vendorKey: string;
  readonly before: number;
}

/**
 * What every mirror's e2e tests share (its functions need no `this`, so a spec may destructure them), for one vendor, against the e2e stack: the mirror's base URL, an org of
 * the test's own (so the simulator's counts are its alone), unique text (so no earlier test's entry is hit),
 * the simulator's counts for the org's vendor key, and requests and sockets that carry the router key where
 * the vendor's clients put theirs, as the registry's access says (its first key placement).
 */
export interface MirrorE2e {
  readonly vendor: VendorId;
  readonly stack: StackInfo;
  readonly sim: SimControl;
  /** `{gateway}/vendor_x`: the base URL a vendor_x client is configured with. */
  readonly base: string;
  newOrg(this: void): Promise<MirrorOrg>;
  /** `words` and 8 random characters, ended with a full stop. */
  unique(this: void, words: string): string;
  /**
   * Two replies of two unique sentences each, the four of different lengths (so that their vendor calls are told
   * apart by length), as the replies-in-turn tests say them on one socket.
   */
  twoReplies(this: void): string[][];
  /**
   * The test, in the spec's `describe`, that the mirror and native /v1/stream share sentences for equal
   * `settings` (or those `settings()` gives when the test runs), both ways, for a new org: a sentence said on the
   * mirror first is heard from the cache on the stream, with the same audio, and one said on the stream first is
   * said by the mirror from the cache; one vendor call in all after the first. `say(key, text, turn)` says `text`
   * on the mirror and answers its audio (`turn`: 'first' before the stream, 'back' after it).
   */
  itSharesWithStream(
    this: void,
    settings: StreamSettings | (() => StreamSettings),
    say: (key: string, text: string, turn: 'first' | 'back') => Promise<Buffer>,
  ): void;
  /**
   * Checks replies said in turn on one socket for a new org: `converse(key, replies)` says the replies (by default
   * `twoReplies`) and answers what it read of each; the first time `miss` checks it (four vendor calls), said
   * again each reply is from the cache (no call more), `hit` checking it against the same reply's first reading.
   */
  expectRepliesInTurn<R>(
    this: void,
    converse: (key: string, replies: string[][]) => Promise<R[]>,
    check: {
      miss(this: void, first: R[], at: RepliesMiss): void | Promise<void>;
      hit(this: void, reply: R, first: R | undefined, index: number): void;
    },
    replies?: string[][],
  ): Promise<void>;
  /** A new org with a router key and no vendor key stored: a mirror refuses it for the missing vendor key. */
  keylessOrg(this: void): { orgId: string; key: string; keyId: string };
  /**
   * Disables the org through the admin CLI, then waits until `refused()` is true (the change reaches the gateway
   * a moment later).
   */
  disableOrg(this: void, orgId: string, refused: () => Promise<boolean>): Promise<void>;
  /**
   * Sets the org out of credit (or back in) through the admin CLI; with `seen`, waits until it is true (the change
   * reaches the gateway a moment later).
   */
  setCredit(this: void, orgId: string, credit: 'out' | 'in', seen?: () => Promise<boolean>): Promise<void>;
  /** `fault` set at the simulated vendor for this vendor key; remove it with `sim.removeFault(id)`. */
  injectFault(this: void, vendorKey: string, fault: MirrorFault): Promise<{ id: string }>;
  /** What `say` answers while `fault` stands for this vendor key; the fault is removed after it. */
  underFault<A>(this: void, vendorKey: string, fault: MirrorFault, say: () => Promise<A>): Promise<A>;
  /**
   * The vendor's 429 for this vendor key (a one-off error fault, with `fault`'s code and message) to what `say`
   * sends once; the fault is removed after it. Answers the refusal, its status checked.
   */
  rateLimited<A extends { readonly status: number }>(
    this: void,
    vendorKey: string,
    say: () => Promise<A>,
    fault?: { readonly code?: string; readonly message?: string },
  ): Promise<A>;
  /** What `say` sends, said twice: answered 200, then the same bytes again. Answers the first answer. */
  saidTwice<A extends { readonly status: number; readonly bytes: Buffer }>(
    this: void,
    say: () => Promise<A>,
  ): Promise<A>;
  /**
   * Checks, for a new org, that a stream the vendor breaks after its 200 (`fault`: its error after some audio,
   * or an end inside an event) is passed on as the vendor sent it and stored nowhere. `say(key)` sends the same
   * request each time: the broken answer (200, then `check.broken`), the request reaching the vendor again and
   * answered whole (200, then `check.whole`), then said from the cache (`check.again`, given the whole answer
   * too); two vendor calls in all.
   */
  passesStreamBreaksOn<A extends { readonly status: number }>(
    this: void,
    fault: MirrorFault,
    say: (key: string) => Promise<A>,
    check: {
      broken(this: void, answer: A): void;
      whole(this: void, answer: A): void;
      again(this: void, again: A, whole: A): void;
    },
  ): Promise<void>;
  /**
   * Checks that the mirror answers each of `paths` (a method and a path under `base`, none of them the vendor's)
   * with the vendor's 404 for a new org's key: that status, and `body(path)` as its JSON.
   */
  answersNotFound(
    this: void,
    paths: ReadonlyArray<readonly [method: string, path: string]>,
    body: (path: string) => unknown,
  ): Promise<void>;
  /** Synthesis calls the simulated vendor has had with this vendor key. */
  calls(this: void, vendorKey: string): Promise<number>;
  /** Other reads (lists, stored settings) the simulated vendor has had with this vendor key. */
  reads(this: void, vendorKey: string): Promise<number>;
  /** The take id of the last synthesis call with this vendor key (to rebuild its audio with `createTake`). */
  lastTakeId(vendorKey: string): Promise<string | undefined>;
  /** The audio of the last synthesis call with this vendor key, rebuilt as the simulator made `text` of it. */
  lastTake(this: void, vendorKey: string, text: string, spec: AudioSpec, speed?: number): Promise<Buffer>;
  /** The router key where the vendor's clients put theirs: the headers, and the path with a query key added. */
  placed(key: string | null, path: string): { headers: Record<string, string>; path: string };
  /** A request to `base` + `path` with `key` placed (none when null), read whole. */
  send(this: void, key: string | null, path: string, request?: MirrorRequest): Promise<MirrorAnswer>;
  /** A socket at `path` under the mirror, keyed at the handshake; opened, or it throws with the refusal. */
  connect(path: string, key: string | null, request?: MirrorSocketRequest): Promise<TestSocket>;
  /** The same socket, handshake not awaited (to see a refusal: `socket.handshake`). */
  dial(path: string, key: string | null, request?: MirrorSocketRequest): TestSocket;
  /**
   * The same socket's handshake refusal: its status and its body parsed as JSON; status 101 and body null where
   * the handshake was accepted (the socket is then closed at once).
   */
  refusal(path: string, key: string | null, request?: MirrorSocketRequest): Promise<HandshakeRefusal>;
}

/** A handshake's answer as `refusal` reads it. */
export interface HandshakeRefusal {
  readonly status: number;
  readonly body: any;
}

/** The words of `texts` as a streaming client sends them, one message each: every word with a space after it. */
export function wordsOf(texts: readonly string[]): string[] {
  return texts
    .join(' ')
    .split(' ')
    .map((word) => `${word} `);
}

/**
 * Replies said in turn on one socket, as a voice agent reuses a pooled socket: for each reply `say` sends it
 * and answers which frame ends it; the reply's frames are those from its sending up to that end (its JSON
 * frames, or with `'received'` every frame, binary ones too).
 */
export function repliesInTurn(
  socket: TestSocket,
  replies: ReadonlyArray<readonly string[]>,
  say: (texts: readonly string[], index: number) => (frame: JsonFrame) => boolean,
): Promise<JsonFrame[][]>;
export function repliesInTurn(
  socket: TestSocket,
  replies: ReadonlyArray<readonly string[]>,
  say: (texts: readonly string[], index: number) => (frame: JsonFrame) => boolean,
  read: 'received',
): Promise<ReceivedFrame[][]>;
export async function repliesInTurn(
  socket: TestSocket,
  replies: ReadonlyArray<readonly string[]>,
  say: (texts: readonly string[], index: number) => (frame: JsonFrame) => boolean,
  read: 'frames' | 'received' = 'frames',
): Promise<Array<Array<JsonFrame | ReceivedFrame>>> {
  const out: Array<Array<JsonFrame | ReceivedFrame>> = [];
  for (const [index, texts] of replies.entries()) {
    const from = { frames: socket.frames.length, received: socket.received.length };
    const ends = say(texts, index);
    await socket.until((frames) => frames.slice(from.frames).some(ends));
    out.push(socket[read].slice(from[read]));
  }
  return out;
}

/** Where `vendor`'s clients put their key, as its registry access's first placement says. */
export function placedRouterKey(vendor: VendorId, key: string): PlacedKey {
  return placeKey(mirrorAccess(vendor).keyPlacements[0], key);
}

export function mirrorE2e(vendor: VendorId): MirrorE2e {
  const stack = readE2eStack();
  const sim = new SimControl(stack.simUrl);
  const base = `${stack.gatewayUrl}/${vendor}`;
  const unique = (words: string): string => `${words} ${randomUUID().slice(0, 8)}.`;
  const orgName = (): string => `mirror-${vendor}-${randomUUID().slice(0, 8)}`;
  const placed = (key: string | null, path: string): { headers: Record<string, string>; path: string } => {
    if (key === null) return { headers: {}, path };
    const at = placedRouterKey(vendor, key);
    return { headers: { ...at.headers }, path: pathWithKey(path, at) };
  };
  const socketArgs = (
    path: string,
    key: string | null,
    request: MirrorSocketRequest,
  ): [string, SocketOptions] => {
    const keyed = placed(key, path);
    const [bare, search = ''] = keyed.path.split(/\?(.*)/s);
    const query = [search, new URLSearchParams(request.query ?? '').toString()].filter(Boolean).join('&');
    const url = mirrorSocketUrl(
      request.tls ? stack.gatewayTlsUrl : stack.gatewayUrl,
      vendor,
      bare ?? path,
      query,
    );
    return [
      url,
      {
        headers: { ...keyed.headers, ...request.headers },
        ...(request.protocols ? { protocols: request.protocols } : {}),
        ...(request.tls ? { ca: readFileSync(stack.tlsCertFile) } : {}),
      },
    ];
  };
  const injectFault = (vendorKey: string, fault: MirrorFault) =>
    sim.injectFault({ vendor, key: vendorKey, ...fault });
  const underFault = async <A>(vendorKey: string, fault: MirrorFault, say: () => Promise<A>): Promise<A> => {
    const injected = await injectFault(vendorKey, fault);
    try {
      return await say();
    } finally {
      await sim.removeFault(injected.id).catch(() => undefined);
    }
  };
  const send = async (
    key: string | null,
    path: string,
    request: MirrorRequest = {},
  ): Promise<MirrorAnswer> => {
    const keyed = placed(key, path);
    const { body } = request;
    const answer = await fetch(`${base}${keyed.path}`, {
      method: request.method ?? (body === undefined ? 'GET' : 'POST'),
      headers: {
        ...keyed.headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    return {
      status: answer.status,
      type: answer.headers.get('content-type'),
      headers: answer.headers,
      bytes,
      text: bytes.toString('utf8'),
    };
  };
  const twoReplies = (): string[][] => [
    [unique('The first reply starts here'), unique('Then the first reply ends')],
    [unique('A second and longer reply follows it'), unique('It ends on the very same socket')],
  ];
  return {
    vendor,
    stack,
    sim,
    base,
    newOrg: () => createOrgWithVendorKey(stack, vendor, orgName()),
    unique,
    twoReplies,
    async expectRepliesInTurn(converse, { miss, hit }, replies) {
      const { key, vendorKey } = await createOrgWithVendorKey(stack, vendor, orgName());
      const said = replies ?? twoReplies();
      const before = await sim.callCount(vendor, { key: vendorKey });
      const first = await converse(key, said);
      await miss(first, { replies: said, vendorKey, before });
      expect(await sim.callCount(vendor, { key: vendorKey })).toBe(before + 4);
      const again = await converse(key, said);
      again.forEach((reply, index) => hit(reply, first[index], index));
      expect(await sim.callCount(vendor, { key: vendorKey })).toBe(before + 4);
    },
    keylessOrg: () => createOrgWithKey(stack.adminUrl, orgName()),
    async disableOrg(orgId, refused) {
      expect(adminCli(stack.adminUrl, ['org', 'disable', orgId]).code).toBe(0);
      await eventually('the disabled org refused', refused);
    },
    async setCredit(orgId, credit, seen) {
      expect(adminCli(stack.adminUrl, ['org', 'credit', orgId, credit]).code).toBe(0);
      if (seen) await eventually(credit === 'out' ? 'out of credit refused' : 'credit back', seen);
    },
    injectFault,
    underFault,
    async rateLimited(vendorKey, say, fault = {}) {
      const refused = await underFault(vendorKey, { kind: 'error', status: 429, ...fault }, say);
      expect(refused.status).toBe(429);
      return refused;
    },
    async saidTwice(say) {
      const said = await say();
      expect(said.status).toBe(200);
      const again = await say();
      expect(again.bytes.equals(said.bytes)).toBe(true);
      return said;
    },
    async passesStreamBreaksOn(fault, say, check) {
      const { key, vendorKey } = await createOrgWithVendorKey(stack, vendor, orgName());
      const before = await sim.callCount(vendor, { key: vendorKey });
      const broken = await underFault(vendorKey, fault, () => say(key));
      // The client gets what the vendor sent: a 200 whose body ended normally, not whole.
      expect(broken.status).toBe(200);
      check.broken(broken);
      const whole = await say(key);
      expect(whole.status).toBe(200);
      check.whole(whole);
      expect(await sim.callCount(vendor, { key: vendorKey })).toBe(before + 2);
      check.again(await say(key), whole);
      expect(await sim.callCount(vendor, { key: vendorKey })).toBe(before + 2);
    },
    async answersNotFound(paths, body) {
      const { key } = await createOrgWithVendorKey(stack, vendor, orgName());
      for (const [method, path] of paths) {
        const answer = await send(key, path, { method });
        expect([method, path, answer.status]).toEqual([method, path, 404]);
        expect(JSON.parse(answer.text)).toEqual(body(path));
      }
    },
    calls: (vendorKey) => sim.callCount(vendor, { key: vendorKey }),
    reads: (vendorKey) => sim.readCount(vendor, { key: vendorKey }),
    itSharesWithStream: (settings, say) =>
      it('shares sentences with /v1/stream for equal settings, both ways', async () => {
        const { key, vendorKey, client } = await createOrgWithVendorKey(stack, vendor, orgName());
        const saidOnMirror = unique('Said on the mirror first');
        const saidNatively = unique('Said natively first');
        const mirrored = await say(key, saidOnMirror, 'first');
        const before = await sim.callCount(vendor, { key: vendorKey });
        const heard = await sayOnStream(
          client,
          typeof settings === 'function' ? settings() : settings,
          `${saidOnMirror} ${saidNatively} `,
        );
        expect(heard.map((h) => [h.text, h.cached])).toEqual([
          [saidOnMirror, true],
          [saidNatively, false],
        ]);
        expect(heard[0]?.audio.equals(mirrored)).toBe(true);
        expect(await sim.callCount(vendor, { key: vendorKey })).toBe(before + 1);
        const back = await say(key, saidNatively, 'back');
        expect(back.equals(heard[1]?.audio ?? Buffer.alloc(0))).toBe(true);
        expect(await sim.callCount(vendor, { key: vendorKey })).toBe(before + 1);
      }),
    lastTakeId: async (vendorKey) => (await sim.calls(vendor, { key: vendorKey })).at(-1)?.takeId,
    async lastTake(vendorKey, text, spec, speed = 1) {
      const takeId = (await sim.calls(vendor, { key: vendorKey })).at(-1)?.takeId;
      return createTake(text, spec, { takeId, speed }).bytes;
    },
    placed,
    send,
    connect: (path, key, request = {}) => openSocket(...socketArgs(path, key, request)),
    dial: (path, key, request = {}) => new TestSocket(...socketArgs(path, key, request)),
    async refusal(path, key, request = {}) {
      const socket = new TestSocket(...socketArgs(path, key, request));
      const handshake = await socket.handshake;
      if (handshake.kind === 'open') {
        socket.close();
        return { status: 101, body: null };
      }
      return { status: handshake.answer.status, body: JSON.parse(handshake.answer.body.toString('utf8')) };
    },
  };
}
