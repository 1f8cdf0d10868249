import { createLogger, Health } from '@router/observability';
import { WebSocket, type ClientOptions } from 'ws';
import { SimControl } from '../control/sim-control.client';
import type { Pacing } from '../kit/pacing';
import { startVendorSim, type RunningVendorSim } from '../vendor-sim.app';

export interface TestSim {
  sim: RunningVendorSim;
  control: SimControl;
  /** `http://127.0.0.1:<port>/<vendor>` */
  base(vendor: string): string;
  wsBase(vendor: string): string;
}

/** Starts the simulator on a free port with fast defaults (5 ms to first audio, no pacing). */
export async function startTestSim(pacing: Partial<Pacing> = {}): Promise<TestSim> {
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
