import { Pool } from 'undici';
import {
  type FromLoadGenerator,
  type IdleStreamsResult,
  type LoadSetup,
  type PhaseResult,
  type PhaseSpec,
  phaseOrder,
  sentence,
  streamOf,
  type ToLoadGenerator,
  type Variant,
  type VariantResult,
} from './load-plan';
import { StreamClient } from './stream-client';

/**
 * The load generator: a process of its own (forked by main.ts), so its CPU and event loop are not the
 * router's. Keep-alive pools to the gateway and to the simulator; each request is timed from just before it
 * is sent to the first byte of its body and to the end of its body. The stream variants use `/v1/stream`
 * connections kept open between replies, one per request in flight, as a voice agent keeps one per call.
 */

/** A reply (or a connection's handshake and `ready`) that takes longer than this has failed. */
const STREAM_TIMEOUT_MS = 15_000;
/** Idle connections opened at once when the benchmark asks for many. */
const OPENING_AT_ONCE = 25;

interface Target {
  pool: Pool;
  path: string;
  headers: Record<string, string>;
  body(text: string): string;
}

class LoadGenerator {
  private readonly router: Target;
  private readonly direct: Target;
  private readonly proxy: Target;
  private readonly chain: Target;
  private readonly chainCached: Target;
  private readonly uncached: Target;
  /** Where each variant's requests go, where not to the router with the main org's key. */
  private readonly targets: Partial<Record<Variant, Target>>;
  /** Next index per sentence stream; the prime streams run ahead of the hits that read them. */
  private readonly next = {
    dir: 0,
    prx: 0,
    chn: 0,
    chc: 0,
    mis: 0,
    unc: 0,
    cld: 0,
    cldPrime: 0,
    hot: 0,
    stm: 0,
  };
  /** The synthesis settings every router variant asks for, in the speech body's field names. */
  private readonly settings: Record<string, unknown>;
  private readonly streamUrl: string;
  /** Stream connections between the timed replies that use them. */
  private readonly spareStreams: StreamClient[] = [];
  /** Idle stream connections held open for the memory measurement. */
  private readonly idleStreams: StreamClient[] = [];

  constructor(private readonly setup: LoadSetup) {
    this.settings = {
      model: 'vendor_a/a_model_1',
      voice: setup.voice,
      language: 'en-IN',
      response_format: 'pcm',
      sample_rate: 16000,
    };
    this.streamUrl = `${setup.gatewayUrl.replace(/^http/, 'ws')}/v1/stream`;
    const pool = (url: string): Pool =>
      new Pool(url, {
        connections: setup.maxConcurrency,
        pipelining: 1,
        keepAliveTimeout: 120_000,
        keepAliveMaxTimeout: 600_000,
      });
    this.router = {
      pool: pool(setup.gatewayUrl),
      path: '/v1/audio/speech',
      headers: { authorization: `Bearer ${setup.routerKey}`, 'content-type': 'application/json' },
      body: (text) => JSON.stringify({ ...this.settings, input: text }),
    };
    // The body the router itself sends vendor_a for those settings (libs/vendors/vendor-a), so the simulator
    // does the same work on both paths.
    this.direct = {
      pool: pool(setup.simUrl),
      path: '/vendor_a/text-to-speech/stream',
      headers: { 'api-subscription-key': setup.vendorKey, 'content-type': 'application/json' },
      body: (text) =>
        JSON.stringify({
          text,
          target_language_code: 'en-IN',
          speaker: setup.voice,
          model: 'a_model_1',
          pace: 1,
          speech_sample_rate: 16000,
          output_audio_codec: 'linear16',
          temperature: 0.6,
        }),
    };
    this.proxy = { ...this.direct, pool: pool(setup.bareProxyUrl) };
    // The chain's gateway only looks for a key header: the vendor's, here, passed on to the worker.
    this.chain = { ...this.direct, pool: pool(setup.chainUrl) };
    this.chainCached = { ...this.chain, headers: { ...this.chain.headers, 'x-naive-cache': '1' } };
    this.uncached = {
      ...this.router,
      headers: { ...this.router.headers, authorization: `Bearer ${setup.uncachedRouterKey}` },
    };
    this.targets = {
      direct: this.direct,
      proxy: this.proxy,
      chain: this.chain,
      'chain-cached': this.chainCached,
      uncached: this.uncached,
    };
  }

  async runPhase(spec: PhaseSpec): Promise<PhaseResult> {
    const results: Partial<Record<Variant, VariantResult>> = {};
    for (const v of spec.variants)
      results[v] = { ttfbMs: [], totalMs: [], bytes: 0, errors: 0, failures: {} };
    const order = phaseOrder(spec.variants, spec.perVariant, spec.id);
    const total = order.length;
    const started = performance.now();
    const deadline = started + spec.maxMs;
    let issued = 0;
    const worker = async (): Promise<void> => {
      while (issued < total && performance.now() < deadline) {
        const variant = order[issued];
        issued += 1;
        await this.timeOne(variant, results[variant] as VariantResult);
      }
    };
    await Promise.all(Array.from({ length: Math.min(spec.concurrency, total) }, worker));
    return { kind: 'result', id: spec.id, elapsedMs: performance.now() - started, variants: results };
  }

  /** Opens or closes idle stream connections until `count` are open (see IdleStreamsSpec). */
  async holdIdleStreams(count: number): Promise<IdleStreamsResult> {
    const started = performance.now();
    await Promise.all(this.spareStreams.splice(0).map((c) => c.close()));
    await Promise.all(this.idleStreams.splice(count).map((c) => c.close()));
    const failures: Record<string, number> = {};
    let toOpen = count - this.idleStreams.length;
    const opener = async (): Promise<void> => {
      while (toOpen > 0) {
        toOpen -= 1;
        try {
          this.idleStreams.push(
            await StreamClient.open(this.streamUrl, this.setup.routerKey, this.settings, STREAM_TIMEOUT_MS),
          );
        } catch (error) {
          const reason = error instanceof Error ? error.message : 'error';
          failures[reason] = (failures[reason] ?? 0) + 1;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(OPENING_AT_ONCE, toOpen) }, opener));
    return {
      kind: 'idle-streams',
      open: this.idleStreams.length,
      elapsedMs: performance.now() - started,
      failures,
    };
  }

  async close(): Promise<void> {
    await this.holdIdleStreams(0);
    await Promise.all(
      [this.router, this.direct, this.proxy, this.chain].map((target) => target.pool.close()),
    );
  }

  private textFor(variant: Variant): string {
    const stream = streamOf(variant);
    let index: number;
    if (variant === 'prime-cold') index = this.next.cldPrime++;
    else if (stream === 'hot') index = this.next.hot++ % this.setup.hotSentences;
    else index = this.next[stream]++;
    return sentence(this.setup.runId, stream, index);
  }

  private async timeOne(variant: Variant, into: VariantResult): Promise<void> {
    const text = this.textFor(variant);
    // A cold hit reads the sentence primed at its index: a prime that failed is tried again, or that cold
    // hit would quietly be a miss.
    const attempts = variant === 'prime-cold' || variant === 'prime-hot' ? 3 : 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const failure = await this.timeText(variant, text, into);
      if (failure === undefined) return;
      if (attempt === attempts) this.fail(into, failure);
    }
  }

  /** One request; returns why it failed, or undefined once its timings are recorded. */
  private async timeText(variant: Variant, text: string, into: VariantResult): Promise<string | undefined> {
    if (variant === 'stream-hit' || variant === 'stream-miss') return this.timeStream(variant, text, into);
    const target = this.targets[variant] ?? this.router;
    const body = target.body(text);
    const start = performance.now();
    try {
      const res = await target.pool.request({
        method: 'POST',
        path: target.path,
        headers: target.headers,
        body,
      });
      let first = -1;
      let bytes = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (first < 0) first = performance.now() - start;
        bytes += chunk.length;
      }
      const type = String(res.headers['content-type'] ?? '');
      if (res.statusCode !== 200 || bytes === 0 || type.includes('json')) return `status ${res.statusCode}`;
      into.ttfbMs.push(first);
      into.totalMs.push(performance.now() - start);
      into.bytes += bytes;
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.name : 'error';
    }
  }

  /** One reply over a spare stream connection (a new one when none is spare); see StreamClient.speak. */
  private async timeStream(
    variant: 'stream-hit' | 'stream-miss',
    text: string,
    into: VariantResult,
  ): Promise<string | undefined> {
    let client: StreamClient | undefined;
    try {
      client =
        this.spareStreams.pop() ??
        (await StreamClient.open(this.streamUrl, this.setup.routerKey, this.settings, STREAM_TIMEOUT_MS));
      const spoken = await client.speak(text, STREAM_TIMEOUT_MS);
      // A hit the router did not serve from the cache (or a miss it did) would be measuring the other path.
      if (spoken.cached !== (variant === 'stream-hit'))
        return spoken.cached ? 'miss was cached' : 'hit not cached';
      into.ttfbMs.push(spoken.ttfbMs);
      into.totalMs.push(spoken.totalMs);
      into.bytes += spoken.bytes;
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : 'error';
    } finally {
      if (client?.usable) this.spareStreams.push(client);
      else await client?.close();
    }
  }

  private fail(into: VariantResult, reason: string): void {
    into.errors += 1;
    into.failures[reason] = (into.failures[reason] ?? 0) + 1;
  }
}

function send(message: FromLoadGenerator): void {
  process.send?.(message);
}

function main(): void {
  if (!process.send) {
    process.stderr.write('load-generator: run me through child_process.fork (main.ts does)\n');
    process.exit(2);
  }
  let generator: LoadGenerator | undefined;
  // One message at a time: phases must not overlap, or the CPU figures would mix.
  let queue = Promise.resolve();
  process.on('message', (message: ToLoadGenerator) => {
    queue = queue.then(async () => {
      try {
        if (message.kind === 'setup') {
          generator = new LoadGenerator(message);
          send({ kind: 'ready' });
        } else if (message.kind === 'phase') {
          if (!generator) throw new Error('phase before setup');
          send(await generator.runPhase(message));
        } else if (message.kind === 'idle-streams') {
          if (!generator) throw new Error('idle-streams before setup');
          send(await generator.holdIdleStreams(message.count));
        } else {
          await generator?.close();
          process.exit(0);
        }
      } catch (error) {
        send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    });
  });
  process.on('disconnect', () => process.exit(0));
}

main();
