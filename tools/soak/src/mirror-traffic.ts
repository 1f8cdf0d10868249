import type { RouterClient } from '@router/client';
import type { Surface as SurfaceDriver, SurfaceOutcome } from '@router/testing';
import { readTakeId } from '@router/vendor-sim';
import { sha256, type ReplyVariant } from './soak-record';

/** No client runs more requests than this, whatever the time allows (every loop is bounded). */
const MAX_ITERATIONS = 1_000_000;
/** After a failure a client waits this long, so an outage does not turn into a busy loop. */
const BACKOFF_MS = 100;

/** The codecs a mirror may answer in, tried in turn to find the simulated take in a reply's audio. */
const CODECS = ['pcm', 'wav', 'mp3', 'opus', 'aac', 'flac'] as const;

/** The simulator's take id in a mirror's audio, whatever its format; null if none is found. */
export function takeIdIn(audio: Buffer): string | null {
  for (const codec of CODECS) {
    const id = readTakeId(audio, codec);
    if (id !== null) return id;
  }
  return null;
}

/** Base64 strings at least this long in a JSON or SSE answer are taken as audio. */
const MIN_BASE64_AUDIO = 64;

/**
 * The audio of a mirror's answer: the bytes as they came where they are audio (REST bodies, the sockets'
 * frames as the surface already decoded them), else the base64 audio carried in a JSON body, an SSE stream's
 * `data:` events or a stream of JSON objects one per line, in order. Only audio is compared: the vendors' JSON
 * also carries ids that differ per request.
 */
export function audioOf(body: Buffer): Buffer {
  if (takeIdIn(body) !== null) return body;
  const text = body.toString('utf8');
  const lines = text.split('\n').map((line) => line.trim());
  const sse = lines.some((line) => line.startsWith('data:'));
  const documents = sse
    ? lines.filter((line) => line.startsWith('data:')).map((line) => line.slice('data:'.length).trim())
    : isJson(text)
      ? [text]
      : lines.filter((line) => line.startsWith('{'));
  const pieces: Buffer[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length >= MIN_BASE64_AUDIO && /^[A-Za-z0-9+/]+=*$/.test(value))
        pieces.push(Buffer.from(value, 'base64'));
    } else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  for (const document of documents) {
    try {
      collect(JSON.parse(document));
    } catch {
      // Not JSON (a keep-alive, `[DONE]`): no audio in it.
    }
  }
  return pieces.length > 0 ? Buffer.concat(pieces) : body;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** One mirror surface (a vendor's REST, SSE or socket endpoint) with the sentences only it says. */
export interface MirrorLane {
  readonly surface: SurfaceDriver;
  /** Its own sentences: none has the length of another sentence said to the same vendor (the call log's trace). */
  readonly pool: readonly string[];
}

/** What one lane's clients saw: replies by sentence and bytes, failures by how they ended, hangs and cuts. */
export class MirrorLaneRecord {
  readonly replies = new Map<string, Map<string, ReplyVariant>>();
  ok = 0;
  /** Failed requests by label: the HTTP status of a refusal (`refused 503`), else how it ended. */
  readonly failures = new Map<string, number>();
  /**
   * Refusals a client must not retry (a 4xx but 408 and 429): a fault may fail a request, but only in a way a
   * client can recover from. A 5xx says the server failed and may be retried, as the vendors' own clients do.
   */
  notRetryable = 0;
  hung = 0;
  /** Replies that had begun (some audio came) and did not end whole. */
  lost = 0;

  reply(sentence: string, audio: Buffer): void {
    this.ok++;
    let variants = this.replies.get(sentence);
    if (!variants) {
      variants = new Map();
      this.replies.set(sentence, variants);
    }
    const hash = sha256(audio);
    const seen = variants.get(hash);
    if (seen) seen.count++;
    else variants.set(hash, { count: 1, bytes: audio.length, takeId: takeIdIn(audio) });
  }

  fail(outcome: SurfaceOutcome): void {
    const label = outcome.end === 'refused' && outcome.status ? `refused ${outcome.status}` : outcome.end;
    this.failures.set(label, (this.failures.get(label) ?? 0) + 1);
    const status = outcome.end === 'refused' ? (outcome.status ?? 0) : 0;
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) this.notRetryable++;
    if (outcome.end === 'broken' && outcome.audio.length > 0) this.lost++;
  }
}

export interface MirrorTrafficSetup {
  /** The org as the surfaces speak for it, with the vendor key it stored for each vendor. */
  org: { key: string; client: RouterClient; vendorKeys: Readonly<Record<string, string>> };
  lanes: readonly MirrorLane[];
  records: ReadonlyMap<MirrorLane, MirrorLaneRecord>;
  until: number;
  requestTimeoutMs: number;
  signal: AbortSignal;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const pick = (items: readonly string[]): string => items[Math.floor(Math.random() * items.length)] ?? '';

/**
 * One mirror client: each request takes the next of `lanes` in turn (so each gets traffic however slow the
 * machine) and one of its sentences at random, says it as that vendor's own client would (a new socket per
 * sentence on a socket surface), and records the answer. A request without its whole answer within the
 * request timeout is abandoned and counted as hung.
 */
export async function mirrorClient(setup: MirrorTrafficSetup, lanes: readonly MirrorLane[]): Promise<void> {
  for (let i = 0; i < MAX_ITERATIONS && Date.now() < setup.until && !setup.signal.aborted; i++) {
    const lane = lanes[i % lanes.length];
    if (!lane) return;
    const record = setup.records.get(lane);
    if (!record) throw new Error(`no record for the lane ${lane.surface.vendor} ${lane.surface.name}`);
    const sentence = pick(lane.pool);
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<'hung'>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        resolve('hung');
      }, setup.requestTimeoutMs);
    });
    const org = {
      key: setup.org.key,
      client: setup.org.client,
      vendorKey: setup.org.vendorKeys[lane.surface.vendor] ?? '',
    };
    try {
      const outcome = await Promise.race([lane.surface.say(org, sentence, abort.signal), hang]);
      if (outcome === 'hung') record.hung++;
      else if (outcome.end === 'clean') record.reply(sentence, audioOf(outcome.audio));
      else record.fail(outcome);
      if (outcome === 'hung' || outcome.end !== 'clean') await sleep(BACKOFF_MS);
    } catch {
      // A connection refused or reset before any answer (a mirror app restarting, the gateway's socket cut).
      record.fail({ end: 'refused', audio: Buffer.alloc(0) });
      await sleep(BACKOFF_MS);
    } finally {
      clearTimeout(timer);
    }
  }
}
