import { RouterError } from '@router/contracts';
import { parseJsonObject, parseSse, readRefusal, stringAt, textLines, type SseEvent } from './upstream-parse';

async function* from(parts: string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const events = (parts: string[]): Promise<SseEvent[]> => all(parseSse(from(parts)));

describe('textLines', () => {
  it('joins lines split anywhere across chunks and drops their LF or CRLF ends', async () => {
    expect(await all(textLines(from(['{"a":', '1}\r\n{"b"', ':2}\n', '\n{"c":3}\n'])))).toEqual([
      '{"a":1}',
      '{"b":2}',
      '',
      '{"c":3}',
    ]);
  });

  it('keeps a last line without an end, but not a blank one', async () => {
    expect(await all(textLines(from(['one\ntw', 'o'])))).toEqual(['one', 'two']);
    expect(await all(textLines(from(['one\n', '  '])))).toEqual(['one']);
  });
});

describe('parseSse', () => {
  it('joins events split anywhere across chunks, with CRLF line ends and comments', async () => {
    const parsed = await events([
      'event: ch',
      'unk\r\ndata: {"a":',
      '1}\r\n\r\n: keep-alive\n\nevent: done\ndata: {}\n',
      '\n',
    ]);
    expect(parsed).toEqual([
      { event: 'chunk', data: '{"a":1}' },
      { event: 'done', data: '{}' },
    ]);
  });

  it('joins multi-line data and names unnamed events message', async () => {
    expect(await events(['data: a\ndata: b\n\n'])).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('drops an event the stream cut before its blank line', async () => {
    expect(await events(['event: chunk\ndata: {"data":"AAAA"}\n'])).toEqual([]);
    expect(await events(['event: chunk\ndata: {"data":"AAAA"}'])).toEqual([]);
  });
});

describe('parseJsonObject', () => {
  it('returns a JSON object', () => {
    expect(parseJsonObject<{ a?: unknown }>('vendor_b', '{"a":1}', 'an event')).toEqual({ a: 1 });
  });

  it.each(['not json', '42', 'null', '"text"'])(
    'refuses %s as provider_unavailable naming what it was',
    (text) => {
      let thrown: unknown;
      try {
        parseJsonObject('vendor_c', text, 'a stream line');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(RouterError);
      expect(thrown).toMatchObject({
        code: 'provider_unavailable',
        message: 'vendor_c sent a stream line that is not a JSON object',
      });
    },
  );
});

describe('readRefusal', () => {
  const pick = (json: Readonly<Record<string, unknown>>): string | undefined =>
    stringAt(json, 'error', 'message');

  it('reads what pick finds in a JSON body', () => {
    expect(readRefusal('{"error":{"message":"no such voice"}}', pick)).toBe('no such voice');
  });

  it('falls back to the body when it is not JSON, not an object, or pick finds nothing', () => {
    expect(readRefusal('Bad Gateway', pick)).toBe('Bad Gateway');
    expect(readRefusal('"quoted"', pick)).toBe('"quoted"');
    expect(readRefusal('{"error":"flat"}', pick)).toBe('{"error":"flat"}');
  });

  it('falls back to the body when pick cannot read the shape', () => {
    expect(
      readRefusal('{"detail":[null]}', () => {
        throw new TypeError('no loc on null');
      }),
    ).toBe('{"detail":[null]}');
  });

  it('keeps only the first 1000 characters of a long body', () => {
    expect(readRefusal('x'.repeat(5000), pick)).toHaveLength(1000);
  });
});

describe('stringAt', () => {
  it('walks a path and returns only a string', () => {
    const json = { detail: { message: 'm', code: 7 }, list: ['a'] };
    expect(stringAt(json, 'detail', 'message')).toBe('m');
    expect(stringAt(json, 'detail', 'code')).toBeUndefined();
    expect(stringAt(json, 'detail', 'message', 'deeper')).toBeUndefined();
    expect(stringAt(json, 'missing', 'message')).toBeUndefined();
    expect(stringAt('plain')).toBe('plain');
    expect(stringAt(null, 'x')).toBeUndefined();
  });
});
