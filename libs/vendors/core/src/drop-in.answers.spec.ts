import {
  type FrameKind,
  jsonDocumentAnswer,
  jsonLinesAnswer,
  NOT_WHOLE,
  sseAnswer,
  wavAnswer,
  wholeBodyAnswer,
} from './drop-in.answers';
import type { AnswerReading, AnswerVerdict } from './drop-in.types';
import type { SseEvent } from './upstream-parse';

/** The body fed in chunks of `size` bytes (so frames, and characters, are split anywhere), then its verdict. */
function verdict(reading: AnswerReading, body: string, size = 7): AnswerVerdict {
  const bytes = Buffer.from(body, 'utf8');
  for (let at = 0; at < bytes.length; at += size) reading.push(bytes.subarray(at, at + size));
  return reading.end();
}

const whole = { complete: true };
const notWhole = (reason: string) => ({ complete: false, reason });

describe('wholeBodyAnswer', () => {
  it('is whole once the body ended, and stores it as it came', () => {
    const reading = wholeBodyAnswer();
    expect(verdict(reading, 'any bytes')).toEqual(whole);
    const body = Buffer.from([0, 1, 2]);
    expect(reading.stored(body)).toBe(body);
  });
});

describe('wavAnswer', () => {
  /** A WAV file's bytes: its header with `dataSize` as said, then `samples` bytes of samples. */
  function wav(samples: number, dataSize = samples, extraChunk = false): string {
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'latin1');
    header.writeUInt32LE(Math.min(0xffffffff, 36 + dataSize), 4);
    header.write('WAVE', 8, 'latin1');
    header.write('fmt ', 12, 'latin1');
    header.writeUInt32LE(16, 16);
    header.write('data', 36, 'latin1');
    header.writeUInt32LE(dataSize, 40);
    const list = Buffer.from('LIST\x04\x00\x00\x00abcd', 'latin1');
    const head = extraChunk ? Buffer.concat([header.subarray(0, 36), list, header.subarray(36)]) : header;
    return Buffer.concat([head, Buffer.alloc(samples, 1)]).toString('latin1');
  }
  const read = (body: string, size = 7) => {
    const reading = wavAnswer();
    const bytes = Buffer.from(body, 'latin1');
    for (let at = 0; at < bytes.length; at += size) reading.push(bytes.subarray(at, at + size));
    return reading.end();
  };

  it('is whole with all the samples its header gives, split anywhere, other chunks before them too', () => {
    expect(read(wav(100))).toEqual(whole);
    expect(read(wav(100), 1000)).toEqual(whole);
    expect(read(wav(100, 100, true), 5)).toEqual(whole);
  });

  it('is not whole when it ended before them, or inside its header', () => {
    expect(read(wav(60, 100))).toEqual(notWhole(NOT_WHOLE.short));
    expect(read(wav(0, 100).slice(0, 30))).toEqual(notWhole(NOT_WHOLE.cut));
  });

  it('is whole once it ended when its sizes are left open, or when it is no WAV at all', () => {
    expect(read(wav(10, 0xffffffff))).toEqual(whole);
    expect(read(wav(10, 0))).toEqual(whole);
    expect(read('raw samples, no RIFF header at all')).toEqual(whole);
  });

  it('stores the body as it came', () => {
    const body = Buffer.from(wav(4), 'latin1');
    expect(wavAnswer().stored(body)).toBe(body);
  });
});

describe('jsonLinesAnswer', () => {
  /** Lines with `audio` are parts, `{"end":true}` the final line, anything else an error. */
  const line = (value: unknown): FrameKind => {
    const object = value as Record<string, unknown>;
    if (typeof object['audio'] === 'string') return 'part';
    return object['end'] === true ? 'final' : 'error';
  };
  const lines = (...values: unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('');

  describe('without a final line', () => {
    const reading = () => jsonLinesAnswer({ line, finalFrame: false });

    it('is whole when every line is a part, split anywhere, with CRLF ends, blank lines and a last line without its end', () => {
      expect(verdict(reading(), lines({ audio: 'QUJD' }, { audio: 'é' }))).toEqual(whole);
      expect(verdict(reading(), '{"audio":"a"}\r\n\r\n{"audio":"ü"}', 1)).toEqual(whole);
      expect(verdict(reading(), '')).toEqual(whole);
    });

    it('is not whole with an error line among the parts', () => {
      expect(verdict(reading(), lines({ audio: 'a' }, { detail: { status: 'busy' } }))).toEqual(
        notWhole(NOT_WHOLE.error),
      );
    });

    it('is not whole with a line that is not JSON', () => {
      expect(verdict(reading(), '{"audio":"a"}\nnot json\n{"audio":"b"}\n')).toEqual(
        notWhole(NOT_WHOLE.error),
      );
    });

    it('is not whole when the body stopped inside a line', () => {
      expect(verdict(reading(), `${lines({ audio: 'a' })}{"audio":"b`)).toEqual(notWhole(NOT_WHOLE.cut));
    });

    it('is not whole when the vendor rule throws on a line', () => {
      const throwing = jsonLinesAnswer({
        line: () => {
          throw new Error('a shape the rule did not expect');
        },
        finalFrame: false,
      });
      expect(verdict(throwing, lines({ audio: 'a' }))).toEqual(notWhole(NOT_WHOLE.error));
    });
  });

  describe('with a final line', () => {
    const reading = () => jsonLinesAnswer({ line, finalFrame: true });

    it('is whole once the final line came', () => {
      expect(verdict(reading(), lines({ audio: 'a' }, { end: true }))).toEqual(whole);
    });

    it('is not whole when the body ended before it', () => {
      expect(verdict(reading(), lines({ audio: 'a' }, { audio: 'b' }))).toEqual(notWhole(NOT_WHOLE.noFinal));
    });
  });

  it('stores the body as it came without a stored form, else each line in its stored form', () => {
    const body = Buffer.from('{"audio":"a", "id":1}\n{"audio":"b","id":2}\n');
    expect(jsonLinesAnswer({ line, finalFrame: false }).stored(body)).toBe(body);
    const stored = jsonLinesAnswer({
      line,
      finalFrame: false,
      stored: (value) => {
        const { id: _id, ...rest } = value as Record<string, string>;
        return rest.audio === 'b' ? undefined : rest;
      },
    }).stored(body);
    expect(stored.toString()).toBe('{"audio":"a"}\n');
  });
});

describe('sseAnswer', () => {
  /** Named events, as a vendor that names them: `chunk` parts, `done` final, `error` an error. */
  const named = (event: SseEvent): FrameKind =>
    event.event === 'done' ? 'final' : event.event === 'error' ? 'error' : 'part';
  const chunk = (data: string) => `event: chunk\ndata: {"data":"${data}","step_time":41.7}\n\n`;
  const done = 'event: done\ndata: {"done":true}\n\n';

  it('is whole once the final event came, events and characters split anywhere', () => {
    expect(
      verdict(sseAnswer({ event: named }), `${chunk('QUJD')}: keep-alive\n\n${chunk('é')}${done}`, 3),
    ).toEqual(whole);
  });

  it('takes events after the final one as parts', () => {
    const typed = (event: SseEvent): FrameKind => (event.data.includes('"done"') ? 'final' : 'part');
    expect(
      verdict(sseAnswer({ event: typed }), 'data: {"t":"delta"}\n\ndata: {"t":"done"}\n\ndata: [DONE]\n\n'),
    ).toEqual(whole);
  });

  it('is not whole when the stream ended before the final event', () => {
    expect(verdict(sseAnswer({ event: named }), `${chunk('a')}${chunk('b')}`)).toEqual(
      notWhole(NOT_WHOLE.noFinal),
    );
  });

  it('is not whole with an error event, even one followed by the final event', () => {
    const error = 'event: error\ndata: {"status_code":500}\n\n';
    expect(verdict(sseAnswer({ event: named }), `${chunk('a')}${error}`)).toEqual(notWhole(NOT_WHOLE.error));
    expect(verdict(sseAnswer({ event: named }), `${chunk('a')}${error}${done}`)).toEqual(
      notWhole(NOT_WHOLE.error),
    );
  });

  it('is not whole when the stream stopped inside an event, the final one included', () => {
    expect(verdict(sseAnswer({ event: named }), `${chunk('a')}event: done\ndata: {"done":true}\n`)).toEqual(
      notWhole(NOT_WHOLE.cut),
    );
    expect(verdict(sseAnswer({ event: named }), `${chunk('a')}${done}event: chunk\ndata: {"da`)).toEqual(
      notWhole(NOT_WHOLE.cut),
    );
  });

  it('stores the body as it came without a stored form', () => {
    const body = Buffer.from(`${chunk('a')}${done}`);
    expect(sseAnswer({ event: named }).stored(body)).toBe(body);
  });

  it('stores each event in its stored form, written as the vendor writes events', () => {
    const withoutStepTime = (event: SseEvent): SseEvent => {
      if (event.event !== 'chunk') return event;
      const { step_time: _time, ...rest } = JSON.parse(event.data) as Record<string, unknown>;
      return { event: event.event, data: JSON.stringify(rest) };
    };
    const body = Buffer.from(`${chunk('a')}: comment\n\n${chunk('b')}${done}`);
    expect(sseAnswer({ event: named, stored: withoutStepTime }).stored(body).toString()).toBe(
      'event: chunk\ndata: {"data":"a"}\n\nevent: chunk\ndata: {"data":"b"}\n\nevent: done\ndata: {"done":true}\n\n',
    );
    // Unnamed events stay unnamed; an event the stored form leaves out is gone.
    const unnamed = Buffer.from('data: {"type":"delta"}\n\ndata: {"type":"done","usage":{"total":5}}\n\n');
    const zeroUsage = (event: SseEvent): SseEvent | undefined => {
      const value = JSON.parse(event.data) as Record<string, unknown>;
      if (value['type'] === 'delta') return undefined;
      return { ...event, data: JSON.stringify({ ...value, usage: { total: 0 } }) };
    };
    expect(sseAnswer({ event: named, stored: zeroUsage }).stored(unnamed).toString()).toBe(
      'data: {"type":"done","usage":{"total":0}}\n\n',
    );
  });

  it("writes stored events with the vendor's CRLF line ends where it uses them", () => {
    const crlf = Buffer.from('data: {"n":1}\r\n\r\nevent: done\r\ndata: {"n":2}\r\n\r\n');
    const same = (event: SseEvent): SseEvent => event;
    expect(sseAnswer({ event: named, stored: same, lineEnd: '\r\n' }).stored(crlf).toString()).toBe(
      crlf.toString(),
    );
  });
});

describe('jsonDocumentAnswer', () => {
  const document = (value: unknown): 'whole' | 'error' =>
    typeof (value as Record<string, unknown>)['audio'] === 'string' ? 'whole' : 'error';

  it('is whole when the body is the whole document, split anywhere', () => {
    expect(verdict(jsonDocumentAnswer({ document }), '{"audio":"QUJD","chars":["é"]}', 2)).toEqual(whole);
  });

  it('is not whole when the body stopped inside the document', () => {
    expect(verdict(jsonDocumentAnswer({ document }), '{"audio":"QUJD","cha')).toEqual(
      notWhole(NOT_WHOLE.notJson),
    );
  });

  it('is not whole when the document is an error sent with the 200', () => {
    expect(verdict(jsonDocumentAnswer({ document }), '{"detail":{"status":"busy"}}')).toEqual(
      notWhole(NOT_WHOLE.error),
    );
  });

  it('stores the body as it came without a stored form, else its stored form', () => {
    const body = Buffer.from('{"request_id":"r1","audios":["QUJD"]}');
    expect(jsonDocumentAnswer({ document }).stored(body)).toBe(body);
    const nullId = jsonDocumentAnswer({
      document,
      stored: (value) => ({ ...(value as Record<string, string>), request_id: null }),
    });
    expect(nullId.stored(body).toString()).toBe('{"request_id":null,"audios":["QUJD"]}');
  });
});
