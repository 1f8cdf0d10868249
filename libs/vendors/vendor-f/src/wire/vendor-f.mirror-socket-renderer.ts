import type { RouterError } from '@router/contracts';
import type { ContextEnd, SocketContextRenderer, SocketFailure, SocketFrame } from '@router/vendors-core';
import {
  VENDOR_F_AUDIO_CLEAR,
  VENDOR_F_AUDIO_DONE,
  vendorFAudioDelta,
  vendorFSocketError,
} from './vendor-f.socket';

/*
 * The frames of vendor_f's `/v1/tts` mirror socket (vendor-f.mirror-socket.ts reads the client's messages):
 * audio as it comes, `audio.done` and `audio.clear`, and a failure that ends its utterance.
 */

/** The tag of a `text.done`'s flush, answered with `audio.done`. */
export const UTTERANCE_DONE = 'text.done';

/**
 * Where the connection's utterances stand, shared by its codec (which reads the client's messages in order) and
 * its renderer (which learns of a failure as it happens): an utterance that failed is over, as at the vendor.
 */
export class Utterances {
  /** `text.done`s sent on whose `audio.done` is still to come. */
  pendingDone = 0;
  /** The next `text.done`'s answer is the failure's `error` already sent: no `audio.done` for it. */
  failed = false;
  /** The utterance still being written failed: its later text and its `text.done` are dropped. */
  dropping = false;

  /** A barge-in forgets every utterance in progress. */
  clear(): void {
    this.pendingDone = 0;
    this.failed = false;
    this.dropping = false;
  }
}

/** The utterance's frames: base64 audio as it comes, `audio.done` after a `text.done`, `audio.clear` after a clear. */
export class VendorFRenderer implements SocketContextRenderer {
  constructor(private readonly utterances: Utterances) {}

  audio(chunk: Buffer): SocketFrame[] {
    return chunk.length === 0 ? [] : [JSON.stringify(vendorFAudioDelta(chunk))];
  }

  /** The vendor's timings come only from its own socket; the router's takes have none (`with_timestamps`). */
  sentenceEnd(): SocketFrame[] {
    return [];
  }

  flushed(tag: string | undefined): SocketFrame[] {
    if (tag !== UTTERANCE_DONE) return [];
    const { utterances } = this;
    utterances.pendingDone = Math.max(0, utterances.pendingDone - 1);
    if (!utterances.failed) return [JSON.stringify(VENDOR_F_AUDIO_DONE)];
    utterances.failed = false;
    return [];
  }

  /** Only a `text.clear` ends the context; every one is acknowledged, whether it stopped anything or not. */
  finished(end: ContextEnd): SocketFrame[] {
    return end.kind === 'cancel' ? [JSON.stringify(VENDOR_F_AUDIO_CLEAR)] : [];
  }

  /**
   * A failed sentence is an `error` (the vendor's message where it refused) that ends its utterance: the rest of
   * it is dropped (through its `text.done`, or what the client still writes of it) and no `audio.done` follows.
   * The socket stays open. A command that failed is an `error` alone.
   */
  failed(error: RouterError, at?: { sentence: number }): SocketFailure {
    const frames = [JSON.stringify(vendorFSocketError(error.message))];
    if (!at) return { frames };
    const { utterances } = this;
    if (utterances.pendingDone > 0) utterances.failed = true;
    else utterances.dropping = true;
    return { frames, drop: { through: UTTERANCE_DONE } };
  }
}
