import {
  RouterApiError,
  RouterClient,
  RouterConnectionError,
  type Sentence,
  type StreamSession,
} from '@router/client';
import type { SoakRecord, Surface } from './soak-record';

/** The settings every request uses: pcm, so a reply's bytes are exactly the stored take's (no WAV header). */
export const SOAK_SETTINGS = {
  model: 'vendor_a/a_model_1',
  language: 'en-IN',
  response_format: 'pcm',
  sample_rate: 16000,
} as const;

/** No client runs more requests or turns than this, whatever the time allows (every loop is bounded). */
const MAX_ITERATIONS = 1_000_000;
/** After a failure a client waits this long, so an outage does not turn into a busy loop. */
const BACKOFF_MS = 100;

export interface TrafficSetup {
  gatewayUrl: string;
  routerKey: string;
  voice: string;
  pool: readonly string[];
  record: SoakRecord;
  /** Clients start nothing new after this (Date.now()). */
  until: number;
  requestTimeoutMs: number;
  /** Aborted: clients stop at once (the run was interrupted). */
  signal: AbortSignal;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];
const going = (setup: TrafficSetup): boolean => Date.now() < setup.until && !setup.signal.aborted;

/** A request or turn with no whole answer in time; its message says what it waited for, and since when. */
class Hung extends Error {}

/**
 * Settles like `work`, or rejects with Hung after `ms` (calling `onHang`, which must end the work). `what`
 * names the work when it hangs (read then: a turn's progress).
 */
function bounded<T>(work: Promise<T>, ms: number, onHang: () => void, what: () => string): Promise<T> {
  const since = new Date().toISOString();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onHang();
      reject(new Hung(`${what()}, from ${since}`));
    }, ms);
  });
  return Promise.race([work, hang]).finally(() => clearTimeout(timer));
}

/** Counts a failure by its code; what is neither the router's envelope nor a cut connection is not retryable. */
function count(record: SoakRecord, surface: Surface, error: unknown): void {
  if (error instanceof Hung) record.hang(surface, error.message);
  else if (error instanceof RouterApiError) record.error(surface, error.code, error.retryable);
  else if (error instanceof RouterConnectionError) record.error(surface, error.name, error.retryable);
  else record.error(surface, `client:${error instanceof Error ? error.name : 'unknown'}`, false);
}

/** One `POST /v1/audio/speech` client: one sentence per request, so each reply is one take. */
export async function httpClient(setup: TrafficSetup): Promise<void> {
  const client = new RouterClient({ baseUrl: setup.gatewayUrl, apiKey: setup.routerKey });
  for (let i = 0; i < MAX_ITERATIONS && going(setup); i++) {
    const sentence = pick(setup.pool);
    const abort = new AbortController();
    const started = performance.now();
    // Set once the answer's head came: a failure after it cut a reply that had begun.
    let begun = false;
    try {
      const audio = await bounded(
        client
          .speech({ ...SOAK_SETTINGS, voice: setup.voice, input: sentence }, { signal: abort.signal })
          .then((reply) => {
            begun = true;
            return reply.bytes();
          }),
        setup.requestTimeoutMs,
        () => abort.abort(),
        () => `a speech request (${begun ? 'its body' : 'no answer head'})`,
      );
      setup.record.reply('http', sentence, audio, performance.now() - started);
    } catch (error) {
      if (begun) setup.record.lose('http');
      count(setup.record, 'http', error);
      await sleep(BACKOFF_MS);
    }
  }
}

/**
 * One `/v1/stream` session, kept open across turns as a voice agent keeps one per call: each turn sends one to
 * three sentences as one delta and a flush, and reads each sentence's binary frames between its
 * `sentence_start` and `sentence_end`. A turn that fails as a whole (the socket closed, no answer in time)
 * ends the session, and the next turn opens a new one.
 */
export async function streamClient(setup: TrafficSetup): Promise<void> {
  const client = new RouterClient({ baseUrl: setup.gatewayUrl, apiKey: setup.routerKey });
  let session: StreamSession | null = null;
  let sentences: AsyncIterator<Sentence> | null = null;
  try {
    for (let i = 0; i < MAX_ITERATIONS && going(setup); i++) {
      try {
        if (!session) {
          const abort = new AbortController();
          session = await bounded(
            client.stream({ ...SOAK_SETTINGS, voice: setup.voice }, { signal: abort.signal }),
            setup.requestTimeoutMs,
            () => abort.abort(),
            () => 'opening a stream session',
          );
          sentences = session.sentences();
        }
        const open = session;
        const turn = Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => pick(setup.pool));
        const progress = { ended: 0, started: 0 };
        await bounded(
          playTurn(setup, open, sentences as AsyncIterator<Sentence>, turn, progress),
          setup.requestTimeoutMs,
          () => open.disconnect(),
          () =>
            `a stream turn of ${turn.length} sentences (${progress.started} started, ${progress.ended} ended)`,
        );
      } catch (error) {
        count(setup.record, 'stream', error);
        session?.disconnect();
        session = null;
        sentences = null;
        await sleep(BACKOFF_MS);
      }
    }
  } finally {
    session?.disconnect();
  }
}

async function playTurn(
  setup: TrafficSetup,
  session: StreamSession,
  sentences: AsyncIterator<Sentence>,
  turn: string[],
  progress: { started: number; ended: number },
): Promise<void> {
  const started = performance.now();
  session.send(turn.join(' '));
  const flushed = session.flush();
  for (let k = 0; k < turn.length; k++) {
    const next = await sentences.next();
    if (next.done) throw new RouterConnectionError('the session ended in the middle of a turn');
    const sentence = next.value;
    progress.started += 1;
    try {
      const audio = await sentence.bytes();
      const end = await sentence.end();
      progress.ended += 1;
      if (end.interrupted) throw new RouterConnectionError('a sentence ended without its sentence_end');
      // The surface names the piece it spoke: anything but a pool sentence means the turn was not split as sent.
      if (!setup.pool.includes(sentence.text)) setup.record.error('stream', 'unexpected_piece', false);
      else setup.record.reply('stream', sentence.text, audio, performance.now() - started);
    } catch (error) {
      // Its `sentence_start` came: whatever ended it short cut a reply that had begun.
      setup.record.lose('stream');
      // A sentence's own error: the session goes on with the next one.
      if (!(error instanceof RouterApiError)) throw error;
      count(setup.record, 'stream', error);
    }
  }
  await flushed;
}
