import { MAX_TEXT_LENGTH, ProtocolViolation, parseServerMessage, textMessages } from './stream.messages';

const parse = (m: unknown) => parseServerMessage(JSON.stringify(m));

describe('parseServerMessage', () => {
  it.each([
    { type: 'ready', session_id: 's1', settings: { model: 'vendor_c/c_model_1', voice: 'v' } },
    { type: 'sentence_start', sentence: 0, text: 'Hello there.', cached: true },
    {
      type: 'words',
      sentence: 0,
      words: [{ word: 'Hello', start: 0, end: 5, start_ms: 0, end_ms: 310.5 }],
    },
    { type: 'sentence_end', sentence: 3, bytes: 48000, duration_ms: 1000 },
    { type: 'sentence_end', sentence: 3, bytes: 4100, duration_ms: null },
    { type: 'flushed', id: 'turn-1', last_sentence: 1 },
    { type: 'flushed', id: null, last_sentence: null },
    { type: 'interrupted', last_spoken: null, text_spoken: '', text_remaining: 'All of it.' },
    { type: 'error', error: { code: 'bad_request', message: 'unknown field "x"', retryable: false } },
    {
      type: 'error',
      sentence: 2,
      error: { code: 'provider_rejected', message: 'no', retryable: false, provider_status: 403 },
    },
  ])('accepts the documented $type message', (message) => {
    expect(parse(message)).toEqual(message);
  });

  it('reads an error whose sentence is null as one that names no sentence', () => {
    const error = { code: 'internal', message: 'x', retryable: true };
    expect(parse({ type: 'error', error, sentence: null })).toEqual({ type: 'error', error });
  });

  it('skips a message type it does not know (a newer router may add some)', () => {
    expect(parse({ type: 'heartbeat', at: 1 })).toBeNull();
  });

  it.each([
    ['not JSON', '{"type":', 'not JSON'],
    ['an array', '[1]', 'not a JSON object'],
    ['no type', '{"sentence":1}', '"type"'],
    ['a negative index', '{"type":"sentence_start","sentence":-1,"text":"a","cached":false}', '"sentence"'],
    [
      'a fractional index',
      '{"type":"sentence_end","sentence":1.5,"bytes":1,"duration_ms":null}',
      '"sentence"',
    ],
    ['cached as a string', '{"type":"sentence_start","sentence":0,"text":"a","cached":"yes"}', '"cached"'],
    [
      'a word without times',
      '{"type":"words","sentence":0,"words":[{"word":"a","start":0,"end":1}]}',
      '"words"',
    ],
    [
      'an unknown error code',
      '{"type":"error","error":{"code":"oops","message":"m","retryable":false}}',
      '"error"',
    ],
    ['a flushed without id', '{"type":"flushed","last_sentence":null}', '"id"'],
    ['ready without a session', '{"type":"ready","settings":{}}', '"session_id"'],
  ])('refuses %s as a protocol violation naming the field', (_what, text, field) => {
    let thrown: unknown;
    try {
      parseServerMessage(text);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProtocolViolation);
    expect((thrown as Error).message).toContain(field);
  });
});

describe('textMessages', () => {
  it('sends a delta within the limit as one message, and nothing for an empty one', () => {
    expect(textMessages('Hello')).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(textMessages('')).toEqual([]);
    expect(textMessages('x'.repeat(MAX_TEXT_LENGTH))).toHaveLength(1);
  });

  it('cuts a longer delta into messages within the limit that join back into it', () => {
    const text = 'abcdefghij'.repeat(4500);
    const messages = textMessages(text);
    expect(messages.map((m) => m.text.length)).toEqual([20000, 20000, 5000]);
    expect(messages.map((m) => m.text).join('')).toBe(text);
  });

  it('never cuts between the halves of a surrogate pair', () => {
    const text = 'ab😀cd😀';
    for (let limit = 2; limit <= 5; limit += 1) {
      const parts = textMessages(text, limit).map((m) => m.text);
      expect(parts.join('')).toBe(text);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(limit);
        expect(part).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }
    }
  });
});
