import { concatBytes } from './bytes';
import { RouterConnectionError } from './client.errors';

/**
 * The audio of one `POST /v1/audio/speech` response, streamed as its sentences resolve. It is read once:
 * either iterate it (`for await (const chunk of audio)`) or collect it with `bytes()`.
 */
export interface SpeechAudio extends AsyncIterable<Uint8Array> {
  /** `audio/pcm`, `audio/wav`, `audio/mpeg`, `audio/aac`, `audio/mulaw` or `audio/alaw`. */
  readonly contentType: string;
  /** The router's id of this request (its `x-request-id` header), or null where none came. */
  readonly requestId: string | null;
  /** The whole audio as one array (waits for the response to end). */
  bytes(): Promise<Uint8Array>;
}

// A factory rather than a class: declarations of a class's `[Symbol.asyncIterator]` method come out
// wrong from isolated-declaration emit (TypeScript 5.9), which the build uses.
export function speechAudio(
  contentType: string,
  requestId: string | null,
  body: ReadableStream<Uint8Array> | null,
  signal: AbortSignal | undefined,
): SpeechAudio {
  let used = false;

  async function* read(): AsyncGenerator<Uint8Array> {
    if (used) throw new Error('This speech audio has already been read');
    used = true;
    if (body === null) return;
    const reader = body.getReader();
    let done = false;
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (error) {
          done = true;
          // The caller's own abort is theirs to recognise (an AbortError); anything else cut the body.
          if (signal?.aborted) throw signal.reason;
          throw new RouterConnectionError('The speech audio ended before it was complete', { cause: error });
        }
        if (chunk.done) {
          done = true;
          return;
        }
        yield chunk.value;
      }
    } finally {
      // Leaving the loop early (break, throw) releases the connection instead of reading the rest.
      if (!done) await reader.cancel().catch(() => undefined);
    }
  }

  return {
    contentType,
    requestId,
    [Symbol.asyncIterator]: read,
    async bytes(): Promise<Uint8Array> {
      const chunks: Uint8Array[] = [];
      for await (const chunk of read()) chunks.push(chunk);
      return concatBytes(chunks);
    },
  };
}
