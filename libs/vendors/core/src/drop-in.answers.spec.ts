import {
  audioAnswer,
  type FrameKind,
  jsonDocumentAnswer,
  jsonLinesAnswer,
  NOT_WHOLE,
  sseAnswer,
  wholeBodyAnswer,
} from './drop-in.answers';
import { AUDIO_NOT_WHOLE, type AudioExpectation } from './audio-completeness';
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

describe('audioAnswer', () => {
  /** A WAV header that says 100 sample bytes at 16 kHz, 16-bit mono, then `held` of them. */
  const wav = (held: number): Buffer =>
    Buffer.concat([
      Buffer.from('RIFF', 'latin1'),
      Buffer.from([136, 0, 0, 0]),
      Buffer.from('WAVEfmt ', 'latin1'),
      Buffer.from([16, 0, 0, 0, 1, 0, 1, 0, 0x80, 0x3e, 0, 0, 0, 0x7d, 0, 0, 2, 0, 16, 0]),
      Buffer.from('data', 'latin1'),
      Buffer.from([100, 0, 0, 0]),
      Buffer.alloc(held),
    ]);
  const read = (body: Buffer, expected: AudioExpectation | undefined, size = 7) => {
    const reading = audioAnswer(expected);
    for (let at = 0; at < body.length; at += size) reading.push(body.subarray(at, at + size));
    return reading.end();
  };
  const asWav: AudioExpectation = { layout: { kind: 'wav' }, leastMs: 0 };

  it('is whole once its audio is whole in the layout asked for, split anywhere', () => {
    expect(read(wav(100), asWav)).toEqual(whole);
    expect(read(wav(100), asWav, 1000)).toEqual(whole);
  });

  it('is not whole when the audio ended early, or is shorter than its text can be spoken', () => {
    expect(read(wav(10), asWav)).toEqual(notWhole(AUDIO_NOT_WHOLE.wavShort));
    // 100 bytes of 16-bit samples at 16 kHz play 3.125 ms.
    expect(read(wav(100), { layout: { kind: 'wav' }, leastMs: 4 })).toEqual(
      notWhole(AUDIO_NOT_WHOLE.tooShort),
    );
  });

  it('is never whole where the wire cannot tell what was asked for, and stores the body as it came', () => {
    expect(read(wav(100), undefined)).toEqual(notWhole(AUDIO_NOT_WHOLE.unknown));
    const body = wav(4);
    expect(audioAnswer(asWav).stored(body)).toBe(body);
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

  describe('with the audio in its lines', () => {
    /** 16-bit samples at 1 kHz: 2 bytes a millisecond. */
    const audio = (bytes: number) => ({ audio: Buffer.alloc(bytes).toString('base64') });
    const reading = (leastMs: number) =>
      jsonLinesAnswer({
        line,
        finalFrame: false,
        audio: {
          of: (value) => (value as { audio?: string }).audio,
          expected: { layout: { kind: 'samples', sampleRate: 1000, frameBytes: 2 }, leastMs },
        },
      });

    it('is whole when the lines are whole and their audio is whole and long enough', () => {
      expect(verdict(reading(10), lines(audio(12), audio(8)))).toEqual(whole);
    });

    it('is not whole when whole lines hold too little audio, or end inside a sample', () => {
      // An answer ended between two lines: whole lines, but short of the audio its text needs.
      expect(verdict(reading(10), lines(audio(12)))).toEqual(notWhole(AUDIO_NOT_WHOLE.tooShort));
      expect(verdict(reading(1), lines(audio(12), audio(3)))).toEqual(
        notWhole(AUDIO_NOT_WHOLE.partialSample),
      );
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
