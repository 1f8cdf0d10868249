import { createLogger, Health } from '@router/observability';
import { WebSocket, type ClientOptions } from 'ws';
import { SimControl } from '../control/sim-control.client';
import { readTakeId } from '../kit/audio/read-take-id';
import type { Pacing } from '../kit/pacing';
import { startVendorSim, type RunningVendorSim } from '../vendor-sim.app';

export interface TestSim {
  readonly sim: RunningVendorSim;
  readonly control: SimControl;
  /** `http://127.0.0.1:<port>/<vendor>` */
  base(vendor: string): string;
  wsBase(vendor: string): string;
}

/** Starts the simulator on a free port with fast defaults (5 ms to first audio, no pacing). */
async function startTestSim(pacing: Partial<Pacing>): Promise<TestSim> {
  const sim = await startVendorSim(
    { port: 0, host: '127.0.0.1', pacing: { ttfaMs: 5, factor: 0, ...pacing } },
    {
      logger: createLogger({ service: 'vendor-sim-test', level: 'silent' }),
      health: new Health('vendor-sim-test'),
    },
  );
  return {
    sim,
    control: new SimControl(sim.url),
    base: (vendor) => `${sim.url}/${vendor}`,
    wsBase: (vendor) => `${sim.url.replace(/^http/, 'ws')}/${vendor}`,
  };
}

/**
 * Starts the simulator for the enclosing describe block: reset before each test, closed after all. What it
 * returns reads through to the started one once `beforeAll` ran.
 */
export function useTestSim(pacing: Partial<Pacing> = {}): TestSim {
  let started: TestSim | undefined;
  const live = (): TestSim => {
    if (!started) throw new Error('the simulator starts in beforeAll: use it inside a test or hook');
    return started;
  };
  beforeAll(async () => {
    started = await startTestSim(pacing);
  });
  afterAll(async () => {
    await started?.sim.close();
  });
  beforeEach(async () => {
    await live().control.reset();
  });
  return {
    get sim() {
      return live().sim;
    },
    get control() {
      return live().control;
    },
    base: (vendor) => live().base(vendor),
    wsBase: (vendor) => live().wsBase(vendor),
  };
}

/** A request as a vendor's client sends it: JSON, a POST where there is a body, else a GET. */
export function sendJson(
  url: string,
  request: { body?: unknown; method?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const { body, headers = {}, signal } = request;
  return fetch(url, {
    method: request.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    ...(signal ? { signal } : {}),
  });
}

/** The header that carries a key (after `prefix`, e.g. `Bearer `), or none where the key is left out. */
export function keyHeader(name: string, key: string | null, prefix = ''): Record<string, string> {
  return key === null ? {} : { [name]: `${prefix}${key}` };
}

export type Message = Record<string, unknown>;

/** A client socket that records every message from the moment it exists, so none is missed. */
export class SocketProbe {
  readonly messages: Message[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: { predicate: (m: Message) => boolean; resolve: () => void }[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      // Text frames arrive as Buffers (the default binaryType).
      const message = JSON.parse((data as Buffer).toString('utf8')) as Message;
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.predicate(message)) return true;
        w.resolve();
        return false;
      });
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  /** Resolves with all messages so far once one matching `predicate` has arrived. */
  waitFor(predicate: (m: Message) => boolean): Promise<Message[]> {
    if (this.messages.some(predicate)) return Promise.resolve(this.messages);
    return new Promise((resolve) => this.waiters.push({ predicate, resolve: () => resolve(this.messages) }));
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  close(): void {
    this.ws.close();
  }
}

export interface RefusedUpgrade extends Error {
  status: number;
  body: string;
}

/** Opens a socket; rejects with `{status, body}` when the server refuses the upgrade. */
export function openProbe(
  url: string,
  options: ClientOptions = {},
  protocols?: string[],
): Promise<SocketProbe> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, options);
    const probe = new SocketProbe(ws);
    ws.once('open', () => resolve(probe));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        reject(
          Object.assign(new Error(`upgrade refused ${res.statusCode}`), { status: res.statusCode, body }),
        ),
      );
    });
  });
}

/** Reads a whole HTTP response body as bytes, with when its first byte arrived (ms after `startedAt`). */
export async function readTimed(
  response: Response,
  startedAt: number,
): Promise<{ bytes: Buffer; firstByteMs: number }> {
  const reader = response.body?.getReader();
  const chunks: Buffer[] = [];
  let firstByteMs = -1;
  if (!reader) return { bytes: Buffer.alloc(0), firstByteMs };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstByteMs < 0) firstByteMs = Date.now() - startedAt;
    chunks.push(Buffer.from(value));
  }
  return { bytes: Buffer.concat(chunks), firstByteMs };
}

/** Decodes the base64 `audio` fields of socket messages, in order. */
export function joinAudio(
  messages: readonly Message[],
  pick: (m: Message) => string | null | undefined,
): Buffer {
  return Buffer.concat(
    messages
      .map(pick)
      .filter((a): a is string => typeof a === 'string')
      .map((a) => Buffer.from(a, 'base64')),
  );
}

/**
 * Three calls of one body make three takes, told apart by the take id in their PCM, and the call log holds
 * exactly those takes for the key at `endpoint` and none for another key.
 */
export async function expectFreshTakes(
  t: TestSim,
  calls: { readonly vendor: string; readonly key: string; readonly endpoint: string },
  pcmOfOneCall: () => Promise<Buffer>,
): Promise<void> {
  const ids = await Promise.all([1, 2, 3].map(async () => readTakeId(await pcmOfOneCall(), 'pcm')));
  expect(new Set(ids).size).toBe(3);
  const records = await t.control.calls(calls.vendor, { key: calls.key, endpoint: calls.endpoint });
  expect(records.map((r) => r.takeId).sort()).toEqual([...ids].sort());
  expect(await t.control.callCount(calls.vendor, { key: calls.key, endpoint: calls.endpoint })).toBe(3);
  expect(await t.control.callCount(calls.vendor, { key: 'other-key' })).toBe(0);
}
