import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RouterError, type ErrorCode, type SynthSettings, type WordTiming } from '@router/contracts';
import { createLogger, Health } from '@router/observability';
import {
  readTakeId,
  SimControl,
  startVendorSim,
  type Pacing,
  type RunningVendorSim,
  type SimCodec,
} from '@router/vendor-sim';
import {
  resolveSettings,
  type AdapterOptions,
  type ClientSettings,
  type HttpVendorAdapter,
  type SynthesisCall,
  type SynthesisEvent,
  type VendorDefinition,
  type VendorId,
} from '@router/vendors-core';

/** One request as it reached the vendor, and how its answer ended for the adapter. */
export interface RecordedRequest {
  readonly method: string;
  /** Path inside the vendor's mount, with its query, e.g. `/v1/text-to-speech/x/stream?output_format=pcm_16000`. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
  /** The client's socket port: equal ports mean one pooled keep-alive connection. */
  readonly clientPort: number;
  /** `complete` once the whole answer went to the adapter; `client-gone` when the adapter hung up first. */
  readonly outcome: Promise<'complete' | 'client-gone'>;
}

/**
 * A pass-through HTTP proxy in front of the simulator that keeps what each request carried, so a test can
 * check the exact fields an adapter sent (the simulator's call log holds no request bodies).
 */
export class RecordingProxy {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly requests: RecordedRequest[],
  ) {}

  static async start(target: string): Promise<RecordingProxy> {
    const requests: RecordedRequest[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        let settle: (outcome: 'complete' | 'client-gone') => void = () => undefined;
        const outcome = new Promise<'complete' | 'client-gone'>((resolve) => (settle = resolve));
        const url = req.url ?? '/';
        requests.push({
          method: req.method ?? 'GET',
          path: url.replace(/^\/[^/?]+/, ''),
          headers: req.headers,
          body: raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Record<string, unknown>) : {},
          clientPort: req.socket.remotePort ?? 0,
          outcome,
        });
        const upstream = httpRequest(`${target}${url}`, { method: req.method, headers: req.headers });
        upstream.on('response', (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          // A cut upstream is passed on as a cut, not as a clean end.
          answer.on('aborted', () => res.socket?.destroy());
          answer.on('error', () => res.socket?.destroy());
        });
        upstream.on('error', () => res.socket?.destroy());
        res.on('close', () => {
          settle(res.writableFinished ? 'complete' : 'client-gone');
          if (!res.writableFinished) upstream.destroy();
        });
        upstream.end(raw);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new RecordingProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests);
  }

  base(vendor: string): string {
    return `${this.url}/${vendor}`;
  }

  last(): RecordedRequest {
    const request = this.requests[this.requests.length - 1];
    if (!request) throw new Error('no request reached the proxy');
    return request;
  }

  clear(): void {
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

export interface AdapterSim {
  readonly sim: RunningVendorSim;
  readonly control: SimControl;
  readonly proxy: RecordingProxy;
  /** The vendor's base URL straight at the simulator. */
  base(vendor: string): string;
  close(): Promise<void>;
}

/** The simulator in-process on a free port (5 ms to first audio, no pacing) with a recording proxy in front. */
async function startAdapterSim(pacing: Partial<Pacing> = {}): Promise<AdapterSim> {
  const sim = await startVendorSim(
    { port: 0, host: '127.0.0.1', pacing: { ttfaMs: 5, factor: 0, ...pacing } },
    {
      logger: createLogger({ service: 'adapter-tests', level: 'silent' }),
      health: new Health('adapter-tests'),
    },
  );
  const proxy = await RecordingProxy.start(sim.url);
  return {
    sim,
    control: new SimControl(sim.url),
    proxy,
    base: (vendor) => `${sim.url}/${vendor}`,
    close: async () => {
      await proxy.close();
      await sim.close();
    },
  };
}

export interface Collected {
  readonly chunks: Buffer[];
  readonly audio: Buffer;
  readonly words: WordTiming[] | null;
}

/** Runs a take to its end, keeping each audio event as it came. */
export async function collect(events: AsyncIterable<SynthesisEvent>): Promise<Collected> {
  const chunks: Buffer[] = [];
  let words: WordTiming[] | null = null;
  for await (const event of events) {
    if (event.kind === 'audio') chunks.push(event.data);
    else if (event.kind === 'words') words = [...(words ?? []), ...event.words];
  }
  return { chunks, audio: Buffer.concat(chunks), words };
}

/** Runs a take that must fail: the error it threw and the audio that came before it. */
export async function collectFailure(
  events: AsyncIterable<SynthesisEvent>,
): Promise<{ error: unknown; audio: Buffer }> {
  const chunks: Buffer[] = [];
  try {
    for await (const event of events) if (event.kind === 'audio') chunks.push(event.data);
  } catch (error) {
    return { error, audio: Buffer.concat(chunks) };
  }
  throw new Error('the take completed but was expected to fail');
}

interface Closable {
  close(): Promise<void>;
}

/** The started simulator of a describe block (its hooks close it), plus what must close before it. */
export interface SharedSim extends Omit<AdapterSim, 'close'> {
  /** Closes `thing` after the block's tests, before the simulator. */
  adopt<T extends Closable>(thing: T): T;
}

/**
 * Starts the simulator and its recording proxy for the enclosing describe block: reset and emptied before
 * each test, closed after all. What it returns reads through to the started one once `beforeAll` ran.
 */
export function useSharedSim(pacing: Partial<Pacing> = {}): SharedSim {
  let started: AdapterSim | undefined;
  const adopted: Closable[] = [];
  const live = (): AdapterSim => {
    if (!started) throw new Error('the simulator starts in beforeAll: use it inside a test or hook');
    return started;
  };
  beforeAll(async () => {
    started = await startAdapterSim(pacing);
  });
  afterAll(async () => {
    await Promise.all(adopted.map((thing) => thing.close()));
    await started?.close();
  });
  beforeEach(async () => {
    await live().control.reset();
    live().proxy.clear();
  });
  return {
    get sim() {
      return live().sim;
    },
    get control() {
      return live().control;
    },
    get proxy() {
      return live().proxy;
    },
    base: (vendor) => live().base(vendor),
    adopt: (thing) => {
      adopted.push(thing);
      return thing;
    },
  };
}

export interface CallExtra {
  readonly key?: string;
  readonly signal?: AbortSignal;
  readonly text?: string;
}

/** One vendor's adapter against the shared simulator: what its tests use. */
export interface SuiteAccess<A extends HttpVendorAdapter> extends SharedSim {
  readonly vendor: VendorId;
  /** The org key every call sends unless told otherwise. */
  readonly key: string;
  /** The text every call speaks unless told otherwise. */
  readonly text: string;
  /** A base URL straight at the simulator: this suite's vendor's unless another is named. */
  base(vendor?: string): string;
  /** The adapter straight at the simulator. */
  readonly direct: A;
  /** The adapter through the recording proxy, for tests that read what was sent. */
  readonly proxied: A;
  /** The vendor's defaults with these client settings over them, resolved as the speech surface does. */
  readonly settings: (client?: Partial<ClientSettings>) => SynthSettings;
  /** A call of the suite text with the suite key, unless `extra` says otherwise. */
  readonly call: (settings: SynthSettings, extra?: CallExtra) => SynthesisCall;
  /** The take came from the vendor's one call with the suite key at `endpoint`: its audio carries that take id. */
  expectRecordedTake(audio: Buffer, endpoint: string, codec?: SimCodec): Promise<void>;
}

/** The suite of `useAdapterSim`: its accessors, and the test shapes every vendor shares (see each below). */
export interface AdapterSuite<A extends HttpVendorAdapter> extends SuiteAccess<A> {
  readonly itRejectsWrongKey: (refusal: Refusal, answeredBy?: 'vendor' | 'gateway') => void;
  readonly itPassesRefusalThrough: (what: string, settings: () => SynthSettings, refusal: Refusal) => void;
  readonly itMapsHttpStatuses: (table: readonly (readonly [number, ErrorCode])[]) => void;
  readonly itFailsOnErrorEvent: (fault: { readonly status: number; readonly message: string }) => void;
  readonly itFailsOnCut: (title: string, afterBytes?: number) => void;
  readonly itStopsUpstreamOnAbort: (reason?: Error) => void;
}

export interface AdapterSuiteOptions {
  readonly key: string;
  readonly text: string;
  /** The client settings every test starts from; a function where they are known only once the sim runs. */
  readonly defaults: ClientSettings | (() => ClientSettings);
}

/**
 * Registers the hooks of a vendor adapter's integration tests (the shared simulator, a direct and a proxied
 * adapter, reset before each test) and returns what the tests use, with the shared test shapes.
 */
export function useAdapterSim<A extends HttpVendorAdapter>(
  definition: VendorDefinition,
  make: (options: AdapterOptions) => A,
  options: AdapterSuiteOptions,
): AdapterSuite<A> {
  const shared = useSharedSim();
  const vendor = definition.id;
  let adapters: { direct: A; proxied: A } | undefined;
  const live = (): { direct: A; proxied: A } => {
    if (!adapters) throw new Error('the adapters are made in beforeAll: use them inside a test or hook');
    return adapters;
  };
  beforeAll(() => {
    adapters = {
      direct: shared.adopt(make({ baseUrl: shared.base(vendor) })),
      proxied: shared.adopt(make({ baseUrl: shared.proxy.base(vendor) })),
    };
  });
  const defaults = (): ClientSettings =>
    typeof options.defaults === 'function' ? options.defaults() : options.defaults;
  const suite: AdapterSuite<A> = {
    get sim() {
      return shared.sim;
    },
    get control() {
      return shared.control;
    },
    get proxy() {
      return shared.proxy;
    },
    base: (other = vendor) => shared.base(other),
    adopt: (thing) => shared.adopt(thing),
    vendor,
    key: options.key,
    text: options.text,
    get direct() {
      return live().direct;
    },
    get proxied() {
      return live().proxied;
    },
    settings: (client = {}) => resolveSettings(definition, { ...defaults(), ...client }, 'speech'),
    call: (settings, extra = {}) => ({
      apiKey: extra.key ?? options.key,
      settings,
      text: extra.text ?? options.text,
      signal: extra.signal ?? new AbortController().signal,
    }),
    expectRecordedTake: async (audio, endpoint, codec = 'pcm') => {
      const [record] = await shared.control.calls(vendor, { key: options.key });
      expect(record?.endpoint).toBe(endpoint);
      expect(readTakeId(audio, codec)).toBe(record?.takeId);
    },
    itRejectsWrongKey: (refusal, answeredBy) => itRejectsWrongKey(suite, refusal, answeredBy),
    itPassesRefusalThrough: (what, settings, refusal) =>
      itPassesRefusalThrough(suite, what, settings, refusal),
    itMapsHttpStatuses: (table) => itMapsHttpStatuses(suite, table),
    itFailsOnErrorEvent: (fault) => itFailsOnErrorEvent(suite, fault),
    itFailsOnCut: (title, afterBytes) => itFailsOnCut(suite, title, afterBytes),
    itStopsUpstreamOnAbort: (reason) => itStopsUpstreamOnAbort(suite, reason),
  };
  return suite;
}

/** A refusal as the router passes it on: provider_rejected with the vendor's status and message. */
export interface Refusal {
  readonly providerStatus: number;
  /** The exact text, or an asymmetric matcher (`expect.stringContaining(...)`). */
  readonly message: unknown;
}

async function expectRefused(events: AsyncIterable<SynthesisEvent>, refusal: Refusal): Promise<void> {
  const { error } = await collectFailure(events);
  expect(error).toBeInstanceOf(RouterError);
  expect(error).toMatchObject({ code: 'provider_rejected', ...refusal });
}

/**
 * A wrong org key: its refusal reaches the caller as provider_rejected. `answeredBy` the gateway where one in
 * front of the vendor refuses it with its own message.
 */
function itRejectsWrongKey<A extends HttpVendorAdapter>(
  t: SuiteAccess<A>,
  refusal: Refusal,
  answeredBy: 'vendor' | 'gateway' = 'vendor',
): void {
  it(`reports a wrong key as provider_rejected ${refusal.providerStatus} with the ${answeredBy} message`, async () => {
    await expectRefused(t.direct.synthesize(t.call(t.settings(), { key: 'bad-key' })), refusal);
  });
}

/** Settings the vendor refuses (`what` names why): its status and message are passed through. */
function itPassesRefusalThrough<A extends HttpVendorAdapter>(
  t: SuiteAccess<A>,
  what: string,
  settings: () => SynthSettings,
  refusal: Refusal,
): void {
  it(`passes the vendor message of a refusal through (${what})`, async () => {
    await expectRefused(t.direct.synthesize(t.call(settings())), refusal);
  });
}

/** Each HTTP status the vendor answers before any audio becomes this router error, with the vendor message. */
function itMapsHttpStatuses<A extends HttpVendorAdapter>(
  t: SuiteAccess<A>,
  table: readonly (readonly [number, ErrorCode])[],
): void {
  it.each(table)('maps HTTP %i before the audio to %s with the vendor message', async (status, code) => {
    await t.control.injectFault({ vendor: t.vendor, kind: 'error', status, message: `said ${status}` });
    const { error, audio } = await collectFailure(t.direct.synthesize(t.call(t.settings())));
    expect(audio.length).toBe(0);
    expect(error).toMatchObject({ code, providerStatus: status, message: `said ${status}` });
  });
}

/** An error event after some audio (SSE and the like) fails the take with the status and message it carries. */
function itFailsOnErrorEvent<A extends HttpVendorAdapter>(
  t: SuiteAccess<A>,
  fault: { readonly status: number; readonly message: string },
): void {
  it('maps an error event after audio to the status and message it carries', async () => {
    await t.control.injectFault({ vendor: t.vendor, kind: 'error', afterBytes: 4000, ...fault });
    const { error, audio } = await collectFailure(t.direct.synthesize(t.call(t.settings())));
    expect(audio.length).toBe(4000);
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      providerStatus: fault.status,
      message: fault.message,
    });
  });
}

/** A connection cut mid-audio fails the take as provider_unavailable, after the audio that came before the cut. */
function itFailsOnCut<A extends HttpVendorAdapter>(
  t: SuiteAccess<A>,
  title: string,
  afterBytes = 5000,
): void {
  it(title, async () => {
    await t.control.injectFault({ vendor: t.vendor, kind: 'cut', afterBytes });
    const { error, audio } = await collectFailure(t.direct.synthesize(t.call(t.settings())));
    expect(error).toMatchObject({ code: 'provider_unavailable' });
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.length).toBeLessThanOrEqual(afterBytes);
  });
}

/**
 * Aborting after the first audio ends the take with the signal's reason and hangs up on the vendor (the
 * proxy sees the client go before the answer was complete).
 */
function itStopsUpstreamOnAbort<A extends HttpVendorAdapter>(
  t: SuiteAccess<A>,
  reason: Error = new Error('interrupted'),
): void {
  it('stops the upstream call when the signal aborts mid-stream, ending with the signal reason', async () => {
    await t.control.setPacing(t.vendor, { factor: 1 });
    const abort = new AbortController();
    let audioEvents = 0;
    const run = (async () => {
      for await (const event of t.proxied.synthesize(t.call(t.settings(), { signal: abort.signal }))) {
        if (event.kind === 'audio' && ++audioEvents === 1) abort.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(await t.proxy.last().outcome).toBe('client-gone');
  });
}
