import { createHash } from 'node:crypto';
import { readTakeId } from '@router/vendor-sim';

export type Surface = 'http' | 'stream';

/** One kind of failed request: the router's error code (or the client's name for a cut connection). */
export interface ErrorCount {
  count: number;
  /** False once any error of this code said it was not worth retrying. */
  retryable: boolean;
}

/** The audio one sentence was answered with, by its bytes' SHA-256. */
export interface ReplyVariant {
  count: number;
  bytes: number;
  /** The simulated take the audio is (its id is in the audio), null if none is found. */
  takeId: string | null;
}

const MAX_HANGS_KEPT = 10;

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * What the soak's clients saw, kept small (a hash per distinct reply, not the audio): every successful reply
 * of a sentence, every error by code, every request left without an answer, and latencies.
 */
export class SoakRecord {
  readonly replies = new Map<string, Map<string, ReplyVariant>>();
  readonly errors: Record<Surface, Map<string, ErrorCount>> = { http: new Map(), stream: new Map() };
  readonly hung: Record<Surface, number> = { http: 0, stream: 0 };
  /** What the first `MAX_HANGS_KEPT` hung requests were waiting for, and since when (for a reader of a failure). */
  readonly hangs: string[] = [];
  /** Replies that had begun (an HTTP answer's head, a sentence's `sentence_start`) and did not end whole. */
  readonly lost: Record<Surface, number> = { http: 0, stream: 0 };
  readonly ok: Record<Surface, number> = { http: 0, stream: 0 };
  /** Per surface, ms from sending the sentence to its last audio byte, of successful replies. */
  readonly latencyMs: Record<Surface, number[]> = { http: [], stream: [] };

  /** `takeOf` finds the take in a reply's audio (the simulator's id, in pcm by default). */
  constructor(
    private readonly takeOf: (audio: Uint8Array) => string | null = (audio) =>
      readTakeId(Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength), 'pcm'),
  ) {}

  reply(surface: Surface, sentence: string, audio: Uint8Array, ms: number): void {
    this.ok[surface]++;
    this.latencyMs[surface].push(ms);
    let variants = this.replies.get(sentence);
    if (!variants) {
      variants = new Map();
      this.replies.set(sentence, variants);
    }
    const hash = sha256(audio);
    const seen = variants.get(hash);
    if (seen) seen.count++;
    else variants.set(hash, { count: 1, bytes: audio.length, takeId: this.takeOf(audio) });
  }

  error(surface: Surface, code: string, retryable: boolean): void {
    const seen = this.errors[surface].get(code);
    if (seen) {
      seen.count++;
      seen.retryable &&= retryable;
    } else this.errors[surface].set(code, { count: 1, retryable });
  }

  hang(surface: Surface, what: string): void {
    this.hung[surface]++;
    if (this.hangs.length < MAX_HANGS_KEPT) this.hangs.push(`${surface}: ${what}`);
  }

  /** A reply that had begun was cut (its error is counted by `error` too). */
  lose(surface: Surface): void {
    this.lost[surface]++;
  }
}
