import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { RouterError } from '@router/contracts';
import { JSON_MAX_DEPTH } from '@router/service-kit';
import { CLIENT_MESSAGE_FIELDS, parseClientMessage } from './stream-messages';

const settings = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'settings',
    model: 'vendor_a/a_model_2',
    voice: 'persona_1',
    language: 'hi-IN',
    response_format: 'pcm',
    ...extra,
  });

function refusal(frame: string): string {
  try {
    parseClientMessage(frame);
  } catch (error) {
    expect(error).toBeInstanceOf(RouterError);
    expect((error as RouterError).code).toBe('bad_request');
    return (error as RouterError).message;
  }
  throw new Error(`accepted: ${frame}`);
}

describe('parseClientMessage', () => {
  it('resolves settings with vendor options from the options object and the streaming rates', () => {
    const message = parseClientMessage(
      settings({ sample_rate: 16000, options: { pitch: 0.25, loudness: null } }),
    );
    expect(message.type).toBe('settings');
    if (message.type !== 'settings') return;
    expect(message.def.id).toBe('vendor_a');
    expect(message.settings).toMatchObject({ model: 'a_model_2', sampleRate: 16000, format: 'pcm' });
    expect(message.settings.options['pitch']).toBe(0.25);
    // A null option is its default.
    expect(message.settings.options['loudness']).toBe(1);
  });

  it("refuses a speech-only sample rate: the stream takes the catalogue's streaming rates", () => {
    expect(refusal(settings({ sample_rate: 44100 }))).toMatch(/sample_rate/);
  });

  it('refuses vendor options top-level, unknown options and options that are not an object', () => {
    expect(refusal(settings({ pitch: 0.1 }))).toBe('unknown field "pitch" in a settings message');
    expect(refusal(settings({ options: { volume: 1 } }))).toMatch(
      /^options\.volume is not an option of vendor_a; its options are temperature/,
    );
    expect(refusal(settings({ options: [] }))).toBe('options must be an object');
    expect(
      refusal(
        JSON.stringify({
          type: 'settings',
          model: 'vendor_b/b_model_1',
          voice: 'v',
          language: 'hi',
          options: { x: 1 },
        }),
      ),
    ).toMatch(/options\.x is not an option of vendor_b, which has none/);
  });

  it('parses text, flush, interrupt and close', () => {
    expect(parseClientMessage('{"type":"text","text":"Hi"}')).toEqual({ type: 'text', text: 'Hi' });
    expect(parseClientMessage('{"type":"flush"}')).toEqual({ type: 'flush', id: null });
    expect(parseClientMessage('{"type":"flush","id":"t1"}')).toEqual({ type: 'flush', id: 't1' });
    expect(parseClientMessage('{"type":"interrupt","played_ms":1250.5}')).toEqual({
      type: 'interrupt',
      playedMs: 1250.5,
    });
    expect(parseClientMessage('{"type":"interrupt"}')).toEqual({ type: 'interrupt', playedMs: null });
    expect(parseClientMessage('{"type":"close"}')).toEqual({ type: 'close' });
  });

  it.each([
    ['not json', 'a message must be a JSON object'],
    ['[1]', 'a message must be a JSON object'],
    ['{}', 'type must be one of settings, text, flush, interrupt, close'],
    ['{"type":"speak"}', 'type must be one of settings, text, flush, interrupt, close'],
    ['{"type":"text"}', 'text must be a string'],
    ['{"type":"text","text":""}', 'text must not be empty'],
    ['{"type":"text","text":"a","extra":1}', 'unknown field "extra" in a text message'],
    ['{"type":"flush","id":7}', 'id must be a string of at most 64 characters'],
    ['{"type":"interrupt","played_ms":-1}', 'played_ms must be a number of milliseconds, at least 0'],
    ['{"type":"interrupt","played_ms":"5"}', 'played_ms must be a number of milliseconds, at least 0'],
    ['{"type":"close","now":true}', 'unknown field "now" in a close message'],
  ])('refuses %s', (frame, message) => {
    expect(refusal(frame)).toBe(message);
  });

  it('refuses a message nesting arrays and objects past the limit before reading its fields', () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    expect(refusal(`{"type":"settings","options":{"speed":${deep}}}`)).toBe(
      `options nests arrays and objects deeper than the limit of ${JSON_MAX_DEPTH} levels`,
    );
  });

  it('limits one text message to 20,000 characters, counted as code points', () => {
    expect(parseClientMessage(JSON.stringify({ type: 'text', text: '😀'.repeat(20_000) })).type).toBe('text');
    expect(refusal(JSON.stringify({ type: 'text', text: 'a'.repeat(20_001) }))).toBe(
      'text must be at most 20,000 characters per message',
    );
  });
});

describe('the AsyncAPI description of /v1/stream', () => {
  it('names exactly the client messages and fields the parser takes', () => {
    const doc = parse(
      readFileSync(join(__dirname, '../../../../docs/stream-protocol.asyncapi.yaml'), 'utf8'),
    ) as {
      components: {
        messages: Record<string, { payload: { properties?: Record<string, { const?: string }> } }>;
      };
    };
    const described: Record<string, string[]> = {};
    for (const message of Object.values(doc.components.messages)) {
      const type = message.payload.properties?.['type']?.const;
      if (type && Object.hasOwn(CLIENT_MESSAGE_FIELDS, type)) {
        described[type] = Object.keys(message.payload.properties ?? {}).sort();
      }
    }
    const parsed = Object.fromEntries(
      Object.entries(CLIENT_MESSAGE_FIELDS).map(([type, fields]) => [type, [...fields].sort()]),
    );
    expect(described).toEqual(parsed);
  });
});
