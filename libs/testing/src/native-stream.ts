import type { RouterClient, StreamSettings } from '@router/client';

/** One sentence of a /v1/stream reply as a listener heard it: its text, whether it was a replay, its audio. */
export interface HeardSentence {
  text: string;
  cached: boolean;
  audio: Buffer;
}

/**
 * Says `text` on native /v1/stream with `settings` and closes the stream: every sentence of the reply, in
 * order, each with its whole audio. For a mirror's tests that a sentence said on its socket and the same one
 * said natively share one take.
 */
export async function sayOverStream(
  client: RouterClient,
  settings: StreamSettings,
  text: string,
): Promise<HeardSentence[]> {
  const native = await client.stream(settings);
  const sentences = native.sentences();
  native.send(text);
  const heard: HeardSentence[] = [];
  const closing = native.close();
  for (let next = await sentences.next(); !next.done; next = await sentences.next()) {
    const sentence = next.value;
    let audio = Buffer.alloc(0);
    for await (const chunk of sentence.audio) audio = Buffer.concat([audio, chunk]);
    heard.push({ text: sentence.text, cached: sentence.cached, audio });
  }
  await closing;
  return heard;
}

/** One server-sent event of a mirror's stream: its `event:` name (undefined when it has none) and its JSON data. */
export interface SseFrame {
  readonly event: string | undefined;
  readonly data: Record<string, any>;
}

/**
 * A whole event stream as a vendor's notes write it, each event an optional `event:` line, one `data:` line of
 * JSON and a blank line; a last event left unended (a cut stream) is left out.
 */
export function readSseEvents(bytes: Buffer): SseFrame[] {
  return bytes
    .toString('utf8')
    .split('\n\n')
    .slice(0, -1)
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length);
      const data = lines.find((l) => l.startsWith('data: '))?.slice('data: '.length) ?? '{}';
      return { event, data: JSON.parse(data) as Record<string, any> };
    });
}
