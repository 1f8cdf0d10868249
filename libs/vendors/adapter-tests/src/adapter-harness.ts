import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WordTiming } from '@router/contracts';
import { createLogger, Health } from '@router/observability';
import { SimControl, startVendorSim, type Pacing, type RunningVendorSim } from '@router/vendor-sim';
import type { SynthesisEvent } from '@router/vendors-core';

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
export async function startAdapterSim(pacing: Partial<Pacing> = {}): Promise<AdapterSim> {
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
    else words = [...(words ?? []), ...event.words];
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
