import { Pool } from 'undici';
import {
  type CapacityStepResult,
  type CapacityStepSpec,
  type FromLoadGenerator,
  type IdleStreamsResult,
  type LoadSetup,
  type OpenLoopResult,
  type OpenLoopSpec,
  type PhaseResult,
  type PhaseSpec,
  HOT_STREAMS,
  phaseOrder,
  seededRandom,
  sentence,
  sentencePicker,
  type SentenceStream,
  sizedSentence,
  streamOf,
  type ToLoadGenerator,
  type Variant,
  type VariantResult,
} from './load-plan';
import { MirrorSocketClient } from './mirror-socket-client';
import { onSpare } from './spare-connections';
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
/** Sentence lengths whose vendor_d clips are ≈20 KB and ≈200 KB (the table shows the bytes each moved). */
const CLIP_20K_CHARS = 8;
/** A capacity sentence sent this long past its due time or more is counted late. */
const LATE_MS = 10;
const CLIP_200K_CHARS = 72;

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
  /** Next index per sentence stream; the cold primes run ahead of the cold hits that read them. */
  private readonly next = new Map<SentenceStream | 'cldPrime', number>();
  /** The synthesis settings every router variant asks for, in the speech body's field names. */
  private readonly settings: Record<string, unknown>;
  private readonly streamUrl: string;
  /** Stream connections between the timed replies that use them. */
  private readonly spareStreams: StreamClient[] = [];
  /** Idle stream connections held open for the memory measurement. */
  private readonly idleStreams: StreamClient[] = [];
  /** vendor_a mirror sockets between the sentences that use them. */
  private readonly spareMirrorSockets: MirrorSocketClient[] = [];
  /** Next index of the capacity benchmark's new sentences, over all its steps. */
  private nextCapacitySentence = 0;

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
      ...this.peerTargets(pool),
    };
  }

  /**
   * The peer benchmark's targets: one OpenAI-style body for vendor_d everywhere (the native endpoint's own
   * shape carries the same settings), the vendor's key to the simulator and the peer, the router's to the router.
   */
  private peerTargets(pool: (url: string) => Pool): Partial<Record<Variant, Target>> {
    const { setup } = this;
    const json = { 'content-type': 'application/json' };
    const routerAuth = { authorization: `Bearer ${setup.routerKey}`, ...json };
    const openAi = (text: string): string =>
      JSON.stringify({ model: 'd_model_1', input: text, voice: 'brook', response_format: 'pcm' });
    const direct: Target = {
      pool: pool(setup.simUrl),
      path: '/vendor_d/v1/audio/speech',
      headers: { authorization: `Bearer ${setup.vendorDKey ?? ''}`, ...json },
      body: openAi,
    };
    const mirror: Target = { pool: this.router.pool, path: direct.path, headers: routerAuth, body: openAi };
    const cMirror: Target = {
      pool: this.router.pool,
      path: `/vendor_c/v1/text-to-speech/${setup.vendorCVoice ?? ''}?output_format=pcm_16000`,
      headers: { 'vendor_c-api-key': setup.routerKey, ...json },
      body: (text) => JSON.stringify({ text, model_id: 'c_model_1' }),
    };
    return {
      'd-direct': direct,
      'd-proxy': { ...direct, pool: pool(setup.bareProxyUrl) },
      ...(setup.peerUrl
        ? {
            'd-peer': {
              ...direct,
              pool: pool(setup.peerUrl),
              path: '/v1/audio/speech',
              headers: {
                ...direct.headers,
                'x-portkey-provider': 'openai',
                'x-portkey-custom-host': `${setup.simUrl}/vendor_d/v1`,
              },
            },
          }
        : {}),
      'd-native': {
        pool: this.router.pool,
        path: '/v1/audio/speech',
        headers: routerAuth,
        body: (text) =>
          JSON.stringify({
            model: 'vendor_d/d_model_1',
            voice: 'brook',
            response_format: 'pcm',
            sample_rate: 24000,
            input: text,
          }),
      },
      'd-mirror': mirror,
      'd-mirror-hit': mirror,
      'd-hit-20k': mirror,
      'd-hit-200k': mirror,
      'd-prime-hot': mirror,
      'd-prime-20k': mirror,
      'd-prime-200k': mirror,
      'c-mirror': cMirror,
      'c-mirror-hit': cMirror,
      'c-prime-hot': cMirror,
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

  /** Starts requests at the spec's rate for its duration (see OpenLoopSpec). */
  async openLoop(spec: OpenLoopSpec): Promise<OpenLoopResult> {
    const result: VariantResult = { ttfbMs: [], totalMs: [], bytes: 0, errors: 0, failures: {} };
    const interval = 1000 / spec.ratePerSecond;
    const total = Math.max(1, Math.round((spec.ratePerSecond * spec.durationMs) / 1000));
    const started = performance.now();
    const requests: Array<Promise<void>> = [];
    for (let i = 0; i < total; i++) {
      const due = started + i * interval;
      const wait = due - performance.now();
      if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const text = this.textFor(spec.variant);
      requests.push(
        this.timeText(spec.variant, text, result, due).then((failure) => {
          if (failure !== undefined) this.fail(result, failure);
        }),
      );
    }
    await Promise.all(requests);
    return { kind: 'open-loop', id: spec.id, result, elapsedMs: performance.now() - started };
  }

  /**
   * One capacity step (see CapacityStepSpec) on the idle connections held open, with the direct probes beside
   * it; resolves once every session's last sentence has ended.
   */
  async capacityStep(spec: CapacityStepSpec): Promise<CapacityStepResult> {
    const empty = (): VariantResult => ({ ttfbMs: [], totalMs: [], bytes: 0, errors: 0, failures: {} });
    const hits = empty();
    const misses = empty();
    const direct = empty();
    let late = 0;
    let wrongCache = 0;
    const sessions = this.idleStreams.slice(0, spec.sessions);
    const started = performance.now();
    const end = started + spec.durationMs;
    const session = async (client: StreamClient, n: number): Promise<void> => {
      const random = seededRandom(`${spec.id}-${n}`);
      const pick = sentencePicker(random, spec.repeatShare, this.setup.hotSentences);
      // Sessions start spread over the first pace, as calls do, not all on the same beat.
      for (let due = started + random() * spec.paceMs; due < end; due += spec.paceMs) {
        const wait = due - performance.now();
        if (wait >= 1) await sleep(wait);
        const next = pick();
        const text = next.repeat
          ? sentence(this.setup.runId, 'hot', next.index)
          : sentence(this.setup.runId, 'cap', (this.nextCapacitySentence += 1));
        const lateBy = Math.max(0, performance.now() - due);
        if (lateBy >= LATE_MS) late += 1;
        try {
          const spoken = await client.speak(text, STREAM_TIMEOUT_MS);
          if (spoken.cached !== next.repeat) wrongCache += 1;
          record(spoken.cached ? hits : misses, {
            ttfbMs: spoken.ttfbMs + lateBy,
            totalMs: spoken.totalMs + lateBy,
            bytes: spoken.bytes,
          });
        } catch (error) {
          this.fail(next.repeat ? hits : misses, error instanceof Error ? error.message : 'error');
          // A connection left in an unknown state (a timeout terminates it) ends its session.
          if (!client.usable) return;
        }
      }
    };
    const probes: Array<Promise<void>> = [];
    const probing = (async (): Promise<void> => {
      if (spec.directPerSecond <= 0) return;
      const interval = 1000 / spec.directPerSecond;
      for (let due = started; due < end; due += interval) {
        const wait = due - performance.now();
        if (wait >= 1) await sleep(wait);
        probes.push(
          this.timeText('direct', this.textFor('direct'), direct, due).then((failure) => {
            if (failure !== undefined) this.fail(direct, failure);
          }),
        );
      }
    })();
    await Promise.all([...sessions.map(session), probing]);
    await Promise.all(probes);
    // Connections a failed sentence terminated are dropped; the next step opens new ones.
    const usable = this.idleStreams.filter((c) => c.usable);
    this.idleStreams.splice(0, this.idleStreams.length, ...usable);
    return {
      kind: 'capacity-step',
      id: spec.id,
      sessions: sessions.length,
      hits,
      misses,
      direct,
      late,
      wrongCache,
      elapsedMs: performance.now() - started,
    };
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
    for (const socket of this.spareMirrorSockets.splice(0)) socket.close();
    await Promise.all(
      [...new Set([this.router, ...Object.values(this.targets)].map((target) => target.pool))].map((pool) =>
        pool.close(),
      ),
    );
  }

  private textFor(variant: Variant): string {
    const stream = streamOf(variant);
    const counter = variant === 'prime-cold' ? 'cldPrime' : stream;
    const drawn = this.next.get(counter) ?? 0;
    this.next.set(counter, drawn + 1);
    const index = HOT_STREAMS.has(stream) ? drawn % this.setup.hotSentences : drawn;
    // Clips of ≈20 KB and ≈200 KB at vendor_d's 24 kHz PCM.
    if (stream === 'd2k') return sizedSentence(stream, index, CLIP_20K_CHARS);
    if (stream === 'd2h') return sizedSentence(stream, index, CLIP_200K_CHARS);
    return sentence(this.setup.runId, stream, index);
  }

  private async timeOne(variant: Variant, into: VariantResult): Promise<void> {
    const text = this.textFor(variant);
    // A cold hit reads the sentence primed at its index: a prime that failed is tried again, or that cold
    // hit would quietly be a miss.
    const attempts = variant.includes('prime-') ? 3 : 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const failure = await this.timeText(variant, text, into);
      if (failure === undefined) return;
      if (attempt === attempts) this.fail(into, failure);
    }
  }

  /**
   * One request; returns why it failed, or undefined once its timings are recorded. Timed from `due` when given
   * (open loop), else from just before it is sent.
   */
  private async timeText(
    variant: Variant,
    text: string,
    into: VariantResult,
    due?: number,
  ): Promise<string | undefined> {
    if (variant === 'stream-hit' || variant === 'stream-miss') return this.timeStream(variant, text, into);
    if (variant.startsWith('a-ws-')) return this.timeMirrorSocket(text, into);
    const target = this.targets[variant] ?? this.router;
    const body = target.body(text);
    const start = due ?? performance.now();
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
  private timeStream(
    variant: 'stream-hit' | 'stream-miss',
    text: string,
    into: VariantResult,
  ): Promise<string | undefined> {
    const open = (): Promise<StreamClient> =>
      StreamClient.open(this.streamUrl, this.setup.routerKey, this.settings, STREAM_TIMEOUT_MS);
    return onSpare(this.spareStreams, open, async (client) => {
      const spoken = await client.speak(text, STREAM_TIMEOUT_MS);
      // A hit the router did not serve from the cache (or a miss it did) would be measuring the other path.
      if (spoken.cached !== (variant === 'stream-hit'))
        return spoken.cached ? 'miss was cached' : 'hit not cached';
      record(into, spoken);
      return undefined;
    });
  }

  /**
   * One sentence on a spare vendor_a mirror socket (a new one when none is spare), in the settings the speech
   * endpoint's vendor_a variants use; see MirrorSocketClient. Hit or miss is told by the simulator's count.
   */
  private timeMirrorSocket(text: string, into: VariantResult): Promise<string | undefined> {
    const open = (): Promise<MirrorSocketClient> =>
      MirrorSocketClient.open(
        `${this.setup.gatewayUrl.replace(/^http/, 'ws')}/vendor_a/text-to-speech/ws?model=a_model_1&send_completion_event=true`,
        this.setup.routerKey,
        {
          target_language_code: 'en-IN',
          speaker: this.setup.voice,
          output_audio_codec: 'linear16',
          speech_sample_rate: 16000,
        },
        STREAM_TIMEOUT_MS,
      );
    return onSpare(this.spareMirrorSockets, open, async (client) => {
      record(into, await client.say(text, STREAM_TIMEOUT_MS));
      return undefined;
    });
  }

  private fail(into: VariantResult, reason: string): void {
    into.errors += 1;
    into.failures[reason] = (into.failures[reason] ?? 0) + 1;
  }
}

function record(into: VariantResult, timed: { ttfbMs: number; totalMs: number; bytes: number }): void {
  into.ttfbMs.push(timed.ttfbMs);
  into.totalMs.push(timed.totalMs);
  into.bytes += timed.bytes;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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
        } else if (message.kind === 'open-loop') {
          if (!generator) throw new Error('open-loop before setup');
          send(await generator.openLoop(message));
        } else if (message.kind === 'capacity-step') {
          if (!generator) throw new Error('capacity-step before setup');
          send(await generator.capacityStep(message));
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
