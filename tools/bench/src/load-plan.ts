/**
 * What the orchestrator (main.ts) and the load generator (a separate process) say to each other over the
 * fork IPC channel, and the sentences each variant speaks.
 */

/**
 * - direct: the vendor's own request straight to the simulator, a new sentence each time (the baseline);
 * - proxy: the same request through a bare Node reverse proxy (the reference for one hop, side by side);
 * - chain: the same request through a naive gateway → app → NATS → worker chain (naive-chain.ts, the issue's
 *   other reference), a new sentence each time;
 * - chain-cached: the same through the same chain, whose worker then also writes the take to the blob store
 *   and has an indexer insert its row (the least cache write a miss needs; naive-chain.ts);
 * - miss: through the gateway, a sentence never spoken before (gateway → native-api → worker → simulator);
 * - uncached: a miss for an org whose retention is 0, so no cache lookup before it and no blob or row after
 *   it: set beside `miss`, it shows what the cache costs a miss;
 * - hot-hit: through the gateway, one of a few sentences served moments ago (native-api's hot tier);
 * - cold-hit: through the gateway, a sentence cached earlier but not yet read (cache lookup + blob read);
 * - prime-cold / prime-hot: the misses that put the cold-hit and hot-hit sentences in the cache;
 * - stream-miss: over a `/v1/stream` connection through the gateway, a sentence never spoken, sent in
 *   token-sized deltas; timed from the delta that ends the sentence to the first audio frame;
 * - stream-hit: the same for one of the hot-hit sentences (cache entries are shared with the speech endpoint
 *   for equal settings, so these sit in native-api's hot tier).
 *
 * The peer benchmark's variants, all one OpenAI-style body (`model`, `input`, `voice`, `response_format`) for
 * vendor_d's simulator, so every path asks the vendor for the same audio:
 * - d-direct / d-proxy: the body straight to the simulator, and through the bare proxy;
 * - d-peer: through the peer gateway (`@portkey-ai/gateway`, peer-gateway.ts), which forwards it as its
 *   OpenAI provider with a custom host;
 * - d-native: the router's native speech endpoint with `vendor_d/…`, a miss;
 * - d-mirror: the router's vendor_d mirror (`/vendor_d/v1/audio/speech`), a miss;
 * - d-mirror-hit: the mirror, one of the hot sentences (primed by d-prime-hot);
 * - d-hit-20k / d-hit-200k: mirror hits of clips of about 20 KB and 200 KB (primed by d-prime-20k/-200k);
 * - c-mirror / c-mirror-hit: vendor_c's mirror REST endpoint, a miss and a hit (primed by c-prime-hot);
 * - a-ws-miss / a-ws-hit: a sentence on vendor_a's mirror WebSocket (the vendor's own socket protocol), from
 *   sending it whole with `flush` to its first audio frame, a miss and a hit (primed by a-ws-prime-hot).
 */
export const VARIANTS = [
  'direct',
  'proxy',
  'chain',
  'chain-cached',
  'miss',
  'uncached',
  'hot-hit',
  'cold-hit',
  'prime-cold',
  'prime-hot',
  'stream-miss',
  'stream-hit',
  'd-direct',
  'd-proxy',
  'd-peer',
  'd-native',
  'd-mirror',
  'd-mirror-hit',
  'd-hit-20k',
  'd-hit-200k',
  'd-prime-hot',
  'd-prime-20k',
  'd-prime-200k',
  'c-mirror',
  'c-mirror-hit',
  'c-prime-hot',
  'a-ws-miss',
  'a-ws-hit',
  'a-ws-prime-hot',
] as const;
export type Variant = (typeof VARIANTS)[number];

export interface LoadSetup {
  kind: 'setup';
  gatewayUrl: string;
  simUrl: string;
  bareProxyUrl: string;
  /** The naive chain's gateway (the `chain` and `chain-cached` variants). */
  chainUrl: string;
  routerKey: string;
  /** A key of a second org, with retention 0 (the `uncached` variant). */
  uncachedRouterKey: string;
  vendorKey: string;
  voice: string;
  /** The peer gateway (`d-peer`), when the peer benchmark runs. */
  peerUrl?: string;
  /** The vendor_d key the simulator is called with directly (`d-direct`, `d-proxy`, `d-peer`). */
  vendorDKey?: string;
  /** A vendor_c voice id for the vendor_c mirror's path. */
  vendorCVoice?: string;
  /** Keeps this run's sentences apart from any earlier run's against the same database. */
  runId: string;
  /** How many sentences the hot-hit variant cycles through. */
  hotSentences: number;
  /** The most requests in flight in any phase (the size of each keep-alive pool). */
  maxConcurrency: number;
}

export interface PhaseSpec {
  kind: 'phase';
  id: string;
  /** Interleaved in rounds: each round of `variants.length` requests is every variant once (`phaseOrder`). */
  variants: Variant[];
  perVariant: number;
  concurrency: number;
  /** The phase stops starting requests after this long, whatever is left. */
  maxMs: number;
}

export interface VariantResult {
  /**
   * Time to the first byte of the body, per successful request, in completion order (ms). For the stream
   * variants: from sending the delta that ends the sentence to the first binary (audio) frame.
   */
  ttfbMs: number[];
  /** Time to the end of the body (stream variants: to `sentence_end`), per successful request (ms). */
  totalMs: number[];
  bytes: number;
  errors: number;
  /** Status or error name → count, for the requests that failed. */
  failures: Record<string, number>;
}

export interface PhaseResult {
  kind: 'result';
  id: string;
  elapsedMs: number;
  variants: Partial<Record<Variant, VariantResult>>;
}

/**
 * Hold exactly `count` idle `/v1/stream` connections (each authenticated, its settings sent and `ready`
 * received), opening or closing some to get there. The timed phases' connections are closed first, so the
 * idle ones are the only streams open.
 */
export interface IdleStreamsSpec {
  kind: 'idle-streams';
  count: number;
}

export interface IdleStreamsResult {
  kind: 'idle-streams';
  open: number;
  elapsedMs: number;
  /** Connections that could not be opened (or got no `ready`), by reason. */
  failures: Record<string, number>;
}

/**
 * Open loop: requests of one variant started at a fixed rate whatever the answers do, for `durationMs`. Each is
 * timed from when it was due, not from when it went out, so a request the generator had to queue is counted
 * with its wait (no coordinated omission).
 */
export interface OpenLoopSpec {
  kind: 'open-loop';
  id: string;
  variant: Variant;
  ratePerSecond: number;
  durationMs: number;
}

export interface OpenLoopResult {
  kind: 'open-loop';
  id: string;
  result: VariantResult;
  /** From the first request due to the last answer's end. */
  elapsedMs: number;
}

/**
 * One step of the capacity benchmark (capacity-bench.ts) on the idle `/v1/stream` connections held open
 * (IdleStreamsSpec): each of the first `sessions` speaks a sentence every `paceMs` for `durationMs`, starting at
 * an offset of its own within the first pace, as an agent whose sentences play back to back. A sentence is a
 * repeat of one of the setup's `hotSentences` (cached before the run) with probability `repeatShare`, else one
 * never spoken. A sentence is due at its time whatever the one before did: one sent late (its session was
 * still waiting for the last one) is timed from when it was due. Beside the sessions, the vendor's request
 * straight to the simulator at `directPerSecond` (open loop), for the vendor's own share.
 */
export interface CapacityStepSpec {
  kind: 'capacity-step';
  id: string;
  sessions: number;
  durationMs: number;
  paceMs: number;
  repeatShare: number;
  directPerSecond: number;
}

export interface CapacityStepResult {
  kind: 'capacity-step';
  id: string;
  /** Sessions that spoke (fewer than asked when fewer connections were open). */
  sessions: number;
  /** Sentences the router answered from the cache (`cached: true`), and those it synthesized. */
  hits: VariantResult;
  misses: VariantResult;
  /** The direct probes: the vendor's own time to first audio under the same load. */
  direct: VariantResult;
  /** Sentences sent 10 ms or more past their due time (their session was behind). */
  late: number;
  /** Repeats the router did not answer from the cache, and new sentences it did. */
  wrongCache: number;
  /** From the step's start to the last sentence's end. */
  elapsedMs: number;
}

export type ToLoadGenerator =
  LoadSetup | PhaseSpec | IdleStreamsSpec | OpenLoopSpec | CapacityStepSpec | { kind: 'stop' };
export type FromLoadGenerator =
  | { kind: 'ready' }
  | PhaseResult
  | IdleStreamsResult
  | OpenLoopResult
  | CapacityStepResult
  | { kind: 'failed'; message: string };

/**
 * The order a phase issues its requests in: `perVariant` rounds, each every variant once in an order of its
 * own, shuffled by a PRNG seeded with `seed` (the phase's id, so a phase's order is the same in every run).
 * A fixed order would give each variant the same predecessor every time, and what a request leaves behind
 * (a process's garbage collection, a cache write, another chain's wake-ups) falls on the request after it:
 * measured, the variant after `chain` was 0.5–0.9 ms slower at the median than the same variant elsewhere.
 * Shuffled, every variant follows every other about equally often.
 */
export function phaseOrder(variants: readonly Variant[], perVariant: number, seed: string): Variant[] {
  const random = seededRandom(seed);
  const order: Variant[] = [];
  for (let round = 0; round < perVariant; round++) {
    const deck = [...variants];
    for (let i = deck.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    order.push(...deck);
  }
  return order;
}

/** Uniform floats in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: string): () => number {
  return mulberry32(fnv1a(seed));
}

/**
 * What a session says next: a repeat of one of `repeatPool` sentences cached before the run with probability
 * `repeatShare` (which one, uniformly), else a sentence never spoken.
 */
export type NextSentence = { repeat: true; index: number } | { repeat: false };

export function sentencePicker(
  random: () => number,
  repeatShare: number,
  repeatPool: number,
): () => NextSentence {
  return () =>
    random() < repeatShare
      ? { repeat: true, index: Math.min(repeatPool - 1, Math.floor(random() * repeatPool)) }
      : { repeat: false };
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A small seeded PRNG (mulberry32): uniform floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The sentence stream each variant draws from; prime variants fill the streams the hits read. */
export type SentenceStream =
  | 'dir'
  | 'prx'
  | 'chn'
  | 'chc'
  | 'mis'
  | 'unc'
  | 'hot'
  | 'cld'
  | 'stm'
  | 'ddi'
  | 'dpx'
  | 'dpr'
  | 'dna'
  | 'dmi'
  | 'dht'
  | 'd2k'
  | 'd2h'
  | 'cmi'
  | 'cht'
  | 'awm'
  | 'awh';

/** The sentence streams that cycle through `hotSentences` primed sentences rather than running on. */
export const HOT_STREAMS: ReadonlySet<SentenceStream> = new Set(['hot', 'dht', 'd2k', 'd2h', 'cht', 'awh']);

export function streamOf(variant: Variant): SentenceStream {
  switch (variant) {
    case 'direct':
      return 'dir';
    case 'proxy':
      return 'prx';
    case 'chain':
      return 'chn';
    case 'chain-cached':
      return 'chc';
    case 'miss':
      return 'mis';
    case 'uncached':
      return 'unc';
    case 'hot-hit':
    case 'prime-hot':
    case 'stream-hit':
      return 'hot';
    case 'stream-miss':
      return 'stm';
    case 'cold-hit':
    case 'prime-cold':
      return 'cld';
    case 'd-direct':
      return 'ddi';
    case 'd-proxy':
      return 'dpx';
    case 'd-peer':
      return 'dpr';
    case 'd-native':
      return 'dna';
    case 'd-mirror':
      return 'dmi';
    case 'd-mirror-hit':
    case 'd-prime-hot':
      return 'dht';
    case 'd-hit-20k':
    case 'd-prime-20k':
      return 'd2k';
    case 'd-hit-200k':
    case 'd-prime-200k':
      return 'd2h';
    case 'c-mirror':
      return 'cmi';
    case 'c-mirror-hit':
    case 'c-prime-hot':
      return 'cht';
    case 'a-ws-miss':
      return 'awm';
    case 'a-ws-hit':
    case 'a-ws-prime-hot':
      return 'awh';
  }
}

/**
 * A sentence of `chars` characters (more where its stream and index need them), unique per stream and index
 * (every run has an org and cache of its own): the simulator's audio is as long as its text, so this sizes a
 * clip (vendor_d's 24 kHz PCM is ≈2.8 KB per character).
 */
export function sizedSentence(stream: string, index: number, chars: number): string {
  const head = `${stream} ${index}`;
  const filler = ' and so on'.repeat(Math.ceil(chars / 10));
  return `${`${head}${filler}`.slice(0, Math.max(head.length, chars - 1))}.`;
}

/**
 * One sentence, the same length for every variant and index (so the vendor's work is the same), unique per
 * run, stream and index.
 */
export function sentence(runId: string, stream: string, index: number): string {
  return `Benchmark run ${runId} reads ${stream} sentence number ${String(index).padStart(7, '0')} aloud.`;
}

/**
 * A sentence as an LLM streams it: word tokens with their leading space, the sentence's final stop as a token
 * of its own, and the next sentence's first token. The router's splitter ends a sentence at a `.` only once it
 * sees the next word's first letter (it could be an abbreviation or a decimal), so the next token goes right
 * after the stop: `end` is the delta that ends the sentence, `next` the one that settles it.
 */
export function llmDeltas(text: string): { before: string[]; end: string; next: string } {
  const stop = /[.!?]$/.exec(text);
  if (!stop) throw new Error('llmDeltas: the sentence must end with . ! or ?');
  const words = text.slice(0, -1).split(' ');
  return { before: words.map((w, i) => (i === 0 ? w : ` ${w}`)), end: stop[0], next: ' And' };
}
