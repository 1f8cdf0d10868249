import {
  type AnswerReading,
  AUDIO_NOT_WHOLE,
  type DropInRequest,
  dropInServes,
  NOT_WHOLE,
  writeSseEvent,
  jsonDropInRequest,
  cacheableKeying,
  LABEL_MAX_CHARS,
  requestLabels,
  readInChunks,
} from '@router/vendors-core';
import { vendorDAuthProblem, vendorDTypeForStatus } from './vendor-d.errors';
import { vendorDDropIn, vendorDRequestKeying } from './vendor-d.drop-in';
import {
  VENDOR_D_STREAM_END,
  vendorDDeltaEvent,
  vendorDDoneEvent,
  vendorDErrorEvent,
} from './vendor-d.stream';

const SPEECH = '/v1/audio/speech';

const post = (body: unknown, path = SPEECH, query = ''): DropInRequest =>
  jsonDropInRequest(path, body, 'POST', query);

const keyed = (request: DropInRequest) => cacheableKeying(vendorDRequestKeying, request);

const BODY = { model: 'd_model_3', voice: 'brook', input: 'Hello there.' };

const event = (value: unknown): string => writeSseEvent({ event: 'message', data: JSON.stringify(value) });
const END = writeSseEvent({ event: 'message', data: VENDOR_D_STREAM_END });
const DELTAS = [Buffer.from('first audio'), Buffer.from('second audio')].map((a) =>
  event(vendorDDeltaEvent(a)),
);
const DONE = event(vendorDDoneEvent('Hello there.', 1200));
const WHOLE_SSE = [...DELTAS, DONE, END].join('');

const SSE_HEAD = { status: 200, headers: { 'content-type': 'text/event-stream' } };
const AUDIO_HEAD = { status: 200, headers: { 'content-type': 'audio/mpeg' } };

const sse = (): AnswerReading => vendorDDropIn.readAnswer(post({ ...BODY, stream_format: 'sse' }), SSE_HEAD);

describe('vendor_d request keying', () => {
  it("fills response_format, speed and stream_format with the vendor's defaults", () => {
    const bare = keyed(post(BODY));
    expect(bare.canonical).toEqual({
      method: 'POST',
      path: SPEECH,
      query: {},
      body: { ...BODY, response_format: 'mp3', speed: 1, stream_format: 'audio' },
    });
    const spelled = keyed(
      post(`{"stream_format":"audio","speed":1.0,"input":"Hello there.","response_format":"mp3",
        "voice":"brook","model":"d_model_3"}`),
    );
    expect(spelled.canonical).toEqual(bare.canonical);
    expect(bare.chars).toBe(12);
    expect(bare.stored).toEqual([]);
  });

  it('keeps everything else verbatim, so requests the vendor reads apart are keyed apart', () => {
    const base = keyed(post(BODY)).canonical;
    const variants = [
      { ...BODY, input: 'Hello  there.' },
      { ...BODY, model: 'd_model_4' },
      { ...BODY, voice: 'flint' },
      { ...BODY, voice: { id: 'voice_abc' } },
      { ...BODY, instructions: 'Warmly.' },
      { ...BODY, instructions: null },
      { ...BODY, response_format: 'pcm' },
      { ...BODY, response_format: null },
      { ...BODY, speed: 1.25 },
      { ...BODY, speed: '1.0' },
      { ...BODY, speed: null },
      { ...BODY, stream_format: 'sse' },
      { ...BODY, future_field: 1 },
    ];
    for (const variant of variants) expect(keyed(post(variant)).canonical).not.toEqual(base);
    expect(keyed(post(BODY, SPEECH, 'x=1')).canonical).not.toEqual(base);
  });

  it('keeps instructions on the older models, which may read them', () => {
    const plain = keyed(post({ ...BODY, model: 'd_model_1' })).canonical;
    const instructed = keyed(post({ ...BODY, model: 'd_model_1', instructions: 'Whisper.' })).canonical;
    expect(instructed).not.toEqual(plain);
  });

  it('counts the characters of the input, not its UTF-16 units', () => {
    expect(keyed(post({ ...BODY, input: 'नमस्ते 👋' })).chars).toBe([...'नमस्ते 👋'].length);
  });

  it('sends on uncached whatever the vendor is to refuse: another path or method, a body that is not an object with an input', () => {
    for (const request of [
      post(BODY, '/v1/audio/speech/extra'),
      { ...post(BODY), method: 'GET' },
      post('not json'),
      post('[1, 2]'),
      post({ ...BODY, input: 42 }),
      post({ model: 'd_model_3', voice: 'brook' }),
    ]) {
      expect(vendorDRequestKeying(request)).toEqual({ cacheable: false });
    }
  });

  it('has the one endpoint the spec lists', () => {
    expect(dropInServes(vendorDDropIn, 'POST', SPEECH)).toBe(true);
    for (const [method, path] of [
      ['GET', SPEECH],
      ['POST', '/v1/audio/speech/'],
      ['POST', '/audio/speech'],
      ['GET', '/v1/models'],
      ['GET', '/v1/voices'],
    ]) {
      expect(dropInServes(vendorDDropIn, method ?? '', path ?? '')).toBe(false);
    }
  });

  it('keys the organization and project headers, and replays only the content type', () => {
    const { keyed: keyedHeaders, passed, liveOnly } = vendorDDropIn.headers;
    expect(keyedHeaders).toEqual(['vendor_d-organization', 'vendor_d-project']);
    expect(passed).toEqual(
      expect.arrayContaining(['content-type', 'x-request-id', 'vendor_d-processing-ms']),
    );
    expect(passed.filter((name) => !liveOnly.includes(name))).toEqual(['content-type']);
  });

  it("refuses a body the router will not walk with the vendor's 400 at the field", () => {
    const reply = vendorDDropIn.invalidBody({ field: 'voice', message: 'voice nests too deep' });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      error: { message: 'voice nests too deep', type: 'invalid_request_error', param: 'voice', code: null },
    });
    const whole = vendorDDropIn.invalidBody({ field: undefined, message: 'the body nests too deep' });
    expect(JSON.parse(whole.body).error.param).toBeNull();
  });
});

describe("vendor_d's answers", () => {
  it('reads an event stream as whole once speech.audio.done came, with or without [DONE] after it', () => {
    expect(readInChunks(sse(), WHOLE_SSE)).toEqual({ complete: true });
    expect(readInChunks(sse(), [...DELTAS, DONE].join(''))).toEqual({ complete: true });
    expect(readInChunks(sse(), WHOLE_SSE, 1)).toEqual({ complete: true });
  });

  it('finds the error event after the 200: not whole', () => {
    const failed = [DELTAS[0], event(vendorDErrorEvent(vendorDAuthProblem('invalid')))].join('');
    expect(readInChunks(sse(), failed)).toEqual({ complete: false, reason: NOT_WHOLE.error });
    const problem = { status: 500, ...vendorDTypeForStatus(500), param: null, message: 'Failed.' };
    const late = [...DELTAS, event(vendorDErrorEvent(problem)), DONE, END].join('');
    expect(readInChunks(sse(), late)).toEqual({ complete: false, reason: NOT_WHOLE.error });
  });

  it('finds a stream ended before speech.audio.done, or inside an event: not whole', () => {
    expect(readInChunks(sse(), DELTAS.join(''))).toEqual({ complete: false, reason: NOT_WHOLE.noFinal });
    expect(readInChunks(sse(), `${DELTAS.join('')}${END}`)).toEqual({
      complete: false,
      reason: NOT_WHOLE.noFinal,
    });
    const inside = `${DELTAS[0] ?? ''}${(DELTAS[1] ?? '').slice(0, 20)}`;
    expect(readInChunks(sse(), inside)).toEqual({ complete: false, reason: NOT_WHOLE.cut });
  });

  it('finds data it cannot read: not whole', () => {
    expect(readInChunks(sse(), `${DELTAS[0] ?? ''}data: not json\n\n${DONE}${END}`)).toEqual({
      complete: false,
      reason: NOT_WHOLE.error,
    });
  });

  it('stores an event stream with zero usage and [DONE], every delta byte for byte', () => {
    const stored = sse().stored(Buffer.from(WHOLE_SSE, 'utf8')).toString('utf8');
    const zero = event({
      type: 'speech.audio.done',
      usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    });
    expect(stored).toBe([...DELTAS, zero, END].join(''));
  });

  it('zeroes every count of a usage with details, and adds [DONE] where the answer ended without it', () => {
    const detailed = event({
      type: 'speech.audio.done',
      usage: { input_tokens: 5, input_token_details: { text_tokens: 5 }, total_tokens: 9, kind: 'tokens' },
    });
    const stored = sse()
      .stored(Buffer.from([...DELTAS, detailed].join(''), 'utf8'))
      .toString('utf8');
    expect(stored).toBe(
      [
        ...DELTAS,
        event({
          type: 'speech.audio.done',
          usage: {
            input_tokens: 0,
            input_token_details: { text_tokens: 0 },
            total_tokens: 0,
            kind: 'tokens',
          },
        }),
        END,
      ].join(''),
    );
  });

  it('reads audio (an older model asked for SSE included) as whole once it is whole and long enough, stored as it came', () => {
    // One second of 16-bit samples at the vendor's 24000 Hz.
    const audio = Buffer.alloc(48_000, 5);
    for (const body of [BODY, { ...BODY, model: 'd_model_1', stream_format: 'sse' }]) {
      const request = post({ ...body, response_format: 'pcm' });
      const reading = vendorDDropIn.readAnswer(request, AUDIO_HEAD);
      reading.push(audio);
      expect(reading.end()).toEqual({ complete: true });
      expect(reading.stored(audio).equals(audio)).toBe(true);
      const early = vendorDDropIn.readAnswer(request, AUDIO_HEAD);
      early.push(audio.subarray(0, 500));
      expect(early.end()).toEqual({ complete: false, reason: AUDIO_NOT_WHOLE.tooShort });
    }
    // mp3 left out: bytes that are no MPEG frames are not whole.
    expect(readInChunks(vendorDDropIn.readAnswer(post(BODY), AUDIO_HEAD), 'data: not an event')).toEqual({
      complete: false,
      reason: AUDIO_NOT_WHOLE.notFrames,
    });
  });

  it('tells the framing from the content type, in any case and with parameters', () => {
    const head = { status: 200, headers: { 'content-type': 'Text/Event-Stream; charset=utf-8' } };
    expect(readInChunks(vendorDDropIn.readAnswer(post(BODY), head), DELTAS.join(''))).toEqual({
      complete: false,
      reason: NOT_WHOLE.noFinal,
    });
  });
});

describe('vendor_d request labels', () => {
  const labels = (req: DropInRequest) => requestLabels(vendorDDropIn, vendorDDropIn.keying(req));

  it("names the body's model and voice, a built-in voice's name or a custom voice's id", () => {
    expect(labels(post(BODY))).toEqual({ model: 'd_model_3', voice: 'brook' });
    expect(labels(post({ ...BODY, voice: { id: 'voice_abc' } }))).toEqual({
      model: 'd_model_3',
      voice: 'voice_abc',
    });
  });

  it('cuts a field far longer than any id (a client may put anything there) to a name', () => {
    const voice = 'v'.repeat(5000);
    expect(labels(post({ ...BODY, voice })).voice).toBe(voice.slice(0, LABEL_MAX_CHARS));
  });
});
