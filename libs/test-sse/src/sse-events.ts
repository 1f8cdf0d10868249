/**
 * One server-sent event of a stream: its `event:` name (`message`, the SSE default, when it has none) and its
 * JSON data (`any`: its fields are each test's to read).
 */
export interface SseFrame {
  readonly event: string;
  readonly data: Record<string, any>;
}

/**
 * A whole event stream as a vendor's notes write it, each event an optional `event:` line, one `data:` line of
 * JSON and a blank line; a last event left unended (a cut stream) is left out.
 */
export function readSseEvents(body: Buffer | string): SseFrame[] {
  return body
    .toString()
    .split('\n\n')
    .slice(0, -1)
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length) ?? 'message';
      const data = lines.find((l) => l.startsWith('data: '))?.slice('data: '.length) ?? '{}';
      return { event, data: JSON.parse(data) as Record<string, any> };
    });
}

/**
 * The `chunk` events of a stream in the chunk shape vendor_b's and vendor_i's streams share, checked: more than
 * one, each `{ type: 'chunk', data: <base64>, step_time, done: false, status_code: 200 }` plus `fields` (a
 * context id), and nothing else. Answers them.
 */
export function expectStepChunks(
  stream: readonly SseFrame[],
  fields: Record<string, unknown> = {},
): SseFrame[] {
  const chunks = stream.filter((e) => e.event === 'chunk');
  expect(chunks.length).toBeGreaterThan(1);
  for (const chunk of chunks) {
    expect(chunk.data).toEqual({
      type: 'chunk',
      data: expect.any(String),
      step_time: expect.any(Number),
      done: false,
      status_code: 200,
      ...fields,
    });
  }
  return chunks;
}
