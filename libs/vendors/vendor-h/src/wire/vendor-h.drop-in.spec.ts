import {
  AUDIO_NOT_WHOLE,
  type DropInRequest,
  dropInServes,
  NOT_WHOLE,
  writeSseEvent,
  cacheableKeying,
  requestLabels,
  readInChunks,
} from '@router/vendors-core';
import { vendorH } from '../vendor-h.definition';
import { vendorHDropIn, vendorHRequestKeying } from './vendor-h.drop-in';
import { parseVendorHRequest, VENDOR_H_DEFAULTS } from './vendor-h.requests';
import {
  VENDOR_H_DONE_EVENT,
  vendorHAudioEvent,
  vendorHErrorEvent,
  type VendorHSseEvent,
} from './vendor-h.stream';

const SPEECH = '/waves/v1/tts';
const STREAM = '/waves/v1/tts/live';

function request(
  path: string,
  body: unknown,
  options: { method?: string; query?: string; accept?: string } = {},
): DropInRequest {
  return {
    method: options.method ?? 'POST',
    path,
    query: options.query ?? '',
    headers: {
      'content-type': 'application/json',
      ...(options.accept !== undefined ? { accept: options.accept } : {}),
    },
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  };
}

const keyed = (req: DropInRequest) => cacheableKeying(vendorHRequestKeying, req);

const BARE = { text: 'Hello there, the weather is lovely today.', voice_id: 'h1_voice_f1' };
const SPELLED = {
  model: 'h_model_1',
  language: 'en',
  sample_rate: 24000,
  speed: 1,
  output_format: 'pcm',
  word_timestamps: false,
};

describe('vendor_h request keying', () => {
  it.each([SPEECH, STREAM])(
    'keys %s with the defaults the vendor fills spelled out, the rest as sent',
    (path) => {
      const bare = keyed(request(path, BARE));
      expect(bare.canonical).toEqual({ method: 'POST', path, query: {}, body: { ...BARE, ...SPELLED } });
      expect(bare.stored).toEqual([]);
      expect(bare.chars).toBe(BARE.text.length);
    },
  );

  it('keys a body with its defaults left out, null or spelled out alike, in any field order', () => {
    const bare = keyed(request(STREAM, BARE)).canonical;
    for (const same of [
      { ...SPELLED, ...BARE, speed: 1.0 },
      { speed: null, ...BARE, sample_rate: null, output_format: null },
      { ...BARE, model: null, language: null, word_timestamps: null },
    ]) {
      expect(keyed(request(STREAM, same)).canonical).toEqual(bare);
    }
  });

  it('fills the defaults its parser takes, and those of the catalogue', () => {
    const parsed = parseVendorHRequest(BARE, { isVoice: () => true });
    expect(parsed.ok && parsed.request).toMatchObject({
      model: VENDOR_H_DEFAULTS.model,
      language: VENDOR_H_DEFAULTS.language,
      spec: { codec: VENDOR_H_DEFAULTS.format, sampleRate: VENDOR_H_DEFAULTS.sampleRate },
      speed: VENDOR_H_DEFAULTS.speed,
      wordTimestamps: VENDOR_H_DEFAULTS.wordTimestamps,
    });
    expect(vendorH.speedDefault).toBe(VENDOR_H_DEFAULTS.speed);
    expect(vendorH.catalogue.models[0]?.id).toBe(VENDOR_H_DEFAULTS.model);
  });

  it('keys a format left out as WAV where the request accepts audio/wav, as the vendor answers it', () => {
    const wav = keyed(request(SPEECH, BARE, { accept: 'audio/wav' })).canonical;
    expect(wav).toEqual(keyed(request(SPEECH, { ...BARE, output_format: 'wav' })).canonical);
    expect(wav).not.toEqual(keyed(request(SPEECH, BARE)).canonical);
    // The body's own format wins over the header.
    expect(
      keyed(request(SPEECH, { ...BARE, output_format: 'pcm' }, { accept: 'audio/wav' })).canonical,
    ).toEqual(keyed(request(SPEECH, BARE)).canonical);
  });

  it('keeps the text, the voice, the dictionaries, the ids it echoes, every other value and unknown fields as sent', () => {
    const base = keyed(request(SPEECH, BARE)).canonical;
    for (const variant of [
      request(SPEECH, { ...BARE, text: 'Hello there,  the weather is lovely today.' }),
      request(SPEECH, { ...BARE, voice_id: 'h1_voice_m1' }),
      request(SPEECH, { ...BARE, model: 'h_model_2' }),
      request(SPEECH, { ...BARE, language: 'hi' }),
      request(SPEECH, { ...BARE, output_format: 'wav' }),
      request(SPEECH, { ...BARE, sample_rate: 16000 }),
      // The vendor refuses a rate spelled as a string: never the answer to 24000.
      request(SPEECH, { ...BARE, sample_rate: '24000' }),
      request(SPEECH, { ...BARE, speed: 1.5 }),
      request(SPEECH, { ...BARE, word_timestamps: true }),
      request(SPEECH, { ...BARE, pronunciation_dicts: ['dict_1'] }),
      request(SPEECH, { ...BARE, number_pronunciation_language: 'hi' }),
      request(SPEECH, { ...BARE, session_id: 's-1' }),
      request(SPEECH, { ...BARE, request_id: 'r-1' }),
      request(SPEECH, { ...BARE, future_field: true }),
      request(SPEECH, BARE, { query: 'x=1' }),
      request(STREAM, BARE),
    ]) {
      expect(keyed(variant).canonical).not.toEqual(base);
    }
    // Dictionaries are keyed by their ids, in the order sent.
    const dicts = (ids: string[]) => keyed(request(SPEECH, { ...BARE, pronunciation_dicts: ids })).canonical;
    expect(dicts(['a', 'b'])).toEqual(dicts(['a', 'b']));
    expect(dicts(['a', 'b'])).not.toEqual(dicts(['b', 'a']));
  });

  it('counts characters, not UTF-16 units', () => {
    expect(keyed(request(SPEECH, { ...BARE, text: 'नमस्ते 🙏' })).chars).toBe([...'नमस्ते 🙏'].length);
  });

  it('never caches the voice lists, an unknown path, a body the vendor refuses for its shape or text without speech', () => {
    for (const req of [
      request('/waves/v1/h_model_1/get_voices', '', { method: 'GET' }),
      request('/waves/v1/voice-cloning', '', { method: 'GET' }),
      request(SPEECH, BARE, { method: 'GET' }),
      request('/waves/v1/tts/other', BARE),
      request(SPEECH, '[1]'),
      request(SPEECH, 'not json'),
      request(SPEECH, { voice_id: 'h1_voice_f1' }),
      request(SPEECH, { ...BARE, text: 5 }),
      request(STREAM, { ...BARE, text: '... ?! -' }),
    ]) {
      expect(vendorHRequestKeying(req)).toEqual({ cacheable: false });
    }
  });

  it("serves the spec's endpoints and nothing else", () => {
    for (const [method, path] of [
      ['POST', SPEECH],
      ['POST', STREAM],
      ['GET', '/waves/v1/h_model_1/get_voices'],
      ['GET', '/waves/v1/h_model_2/get_voices'],
      ['GET', '/waves/v1/voice-cloning'],
    ] as const) {
      expect([method, path, dropInServes(vendorHDropIn, method, path)]).toEqual([method, path, true]);
    }
    for (const [method, path] of [
      ['GET', SPEECH],
      ['POST', `${STREAM}/`],
      ['POST', '/waves/v2/tts'],
      ['POST', '/waves/v1/h_model_1/get_voices'],
      ['GET', '/waves/v1/get_voices'],
      ['GET', '/waves/v1/a/b/get_voices'],
      ['DELETE', '/waves/v1/voice-cloning'],
      ['GET', '/waves/v1/pronunciation-dicts'],
    ] as const) {
      expect([method, path, dropInServes(vendorHDropIn, method, path)]).toEqual([method, path, false]);
    }
  });
});

/** An event as the vendor writes it. */
const sse = ({ event, data }: VendorHSseEvent): string =>
  writeSseEvent({ event: event ?? 'message', data: JSON.stringify(data) });

const EVENTS = { status: 200, headers: { 'content-type': 'text/event-stream' } };
const streamReading = () => vendorHDropIn.readAnswer(request(STREAM, BARE), EVENTS);

describe('vendor_h drop-in answers', () => {
  const audio = [Buffer.from([1, 2, 3, 4]), Buffer.from([5, 6])];
  const chunks = audio.map((piece) => sse(vendorHAudioEvent('req-1', piece)));
  const whole = `${chunks.join('')}${sse(VENDOR_H_DONE_EVENT)}`;

  it('takes a stream that ends with done as whole, and stores it byte for byte', () => {
    const reading = streamReading();
    expect(readInChunks(reading, whole)).toEqual({ complete: true });
    expect(reading.stored(Buffer.from(whole)).toString('utf8')).toBe(whole);
  });

  it('reads the richer chunk form as audio too', () => {
    const rich = `data: {"request_id":"r","status":"chunk","data":{"audio":"AAE="}}\n\n${sse(VENDOR_H_DONE_EVENT)}`;
    expect(readInChunks(streamReading(), rich)).toEqual({ complete: true });
  });

  it.each([
    [
      'an error event after some audio',
      `${chunks[0]}${sse(vendorHErrorEvent('req-1', { status: 500, message: 'x' }))}`,
      NOT_WHOLE.error,
    ],
    [
      'an error event even with a done after it',
      `${chunks[0]}${sse(vendorHErrorEvent('req-1', { status: 503, message: 'x' }))}${sse(VENDOR_H_DONE_EVENT)}`,
      NOT_WHOLE.error,
    ],
    [
      'a bare error field',
      `${chunks[0]}data: {"error":"boom"}\n\n${sse(VENDOR_H_DONE_EVENT)}`,
      NOT_WHOLE.error,
    ],
    ['an event without audio', `data: {"request_id":"r"}\n\n${sse(VENDOR_H_DONE_EVENT)}`, NOT_WHOLE.error],
    [
      'an event whose data is not JSON',
      `event: audio\ndata: {"audio":\n\n${sse(VENDOR_H_DONE_EVENT)}`,
      NOT_WHOLE.error,
    ],
    ['an event whose data is not an object', `data: [1]\n\n${sse(VENDOR_H_DONE_EVENT)}`, NOT_WHOLE.error],
    ['a stream that ended before done', chunks.join(''), NOT_WHOLE.noFinal],
    ['a stream that ended inside an event', `${chunks[0]}${chunks[1]?.slice(0, 20)}`, NOT_WHOLE.cut],
  ])('takes %s as not whole', (_label, body, reason) => {
    expect(readInChunks(streamReading(), body)).toEqual({ complete: false, reason });
  });

  it.each([
    ['the one-shot clip', SPEECH, 'audio/pcm'],
    ['audio answered on the stream path', STREAM, 'audio/pcm'],
  ])('takes %s as whole once it is whole and long enough, stored as it came', (_label, path, type) => {
    const read = (clip: Buffer) => {
      const reading = vendorHDropIn.readAnswer(
        request(path, { ...BARE, output_format: 'pcm', sample_rate: 16000 }),
        {
          status: 200,
          headers: { 'content-type': type },
        },
      );
      reading.push(clip);
      return { verdict: reading.end(), stored: reading.stored(clip) };
    };
    // Two seconds of 16-bit samples at 16 kHz.
    const clip = Buffer.alloc(64_000, 9);
    expect(read(clip).verdict).toEqual({ complete: true });
    expect(read(clip).stored.equals(clip)).toBe(true);
    expect(read(clip.subarray(0, 3000)).verdict).toEqual({
      complete: false,
      reason: AUDIO_NOT_WHOLE.tooShort,
    });
  });

  it("passes the content type, the echoed ids, the vendor's request id and a refusal's advice; replays the first three", () => {
    const { keyed, passed, liveOnly } = vendorHDropIn.headers;
    expect(keyed).toEqual([]);
    expect(passed).toEqual([
      'content-type',
      'x-external-session-id',
      'x-external-request-id',
      'x-request-id',
      'retry-after',
    ]);
    expect(passed.filter((name) => !liveOnly.includes(name))).toEqual([
      'content-type',
      'x-external-session-id',
      'x-external-request-id',
    ]);
  });

  it("refuses a body it will not walk in the vendor's error shape", () => {
    const reply = vendorHDropIn.invalidBody({ field: 'text', message: 'text nests past 32 levels' });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body.toString())).toEqual({ error: 'text nests past 32 levels' });
  });
});

describe('vendor_h request labels', () => {
  const labels = (req: DropInRequest) => requestLabels(vendorHDropIn, vendorHDropIn.keying(req));

  it("names the body's model, its default where left out, and voice_id", () => {
    expect(labels(request(STREAM, { ...BARE, model: 'h_model_2' }))).toEqual({
      model: 'h_model_2',
      voice: BARE.voice_id,
    });
    expect(labels(request(SPEECH, BARE))).toEqual({ model: VENDOR_H_DEFAULTS.model, voice: BARE.voice_id });
  });
});
