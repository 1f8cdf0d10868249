import {
  AUDIO_NOT_WHOLE,
  type DropInRequest,
  dropInServes,
  NOT_WHOLE,
  SseFramer,
  writeSseEvent,
  jsonDropInRequest,
  cacheableKeying,
  requestLabels,
  readInChunks,
} from '@router/vendors-core';
import { vendorB } from '../vendor-b.definition';
import { parseVendorBRequest, VENDOR_B_DEFAULTS, type VendorBVoiceFacts } from './vendor-b.requests';
import { vendorBDropIn, vendorBRequestKeying } from './vendor-b.drop-in';
import { VENDOR_B_DONE_EVENT, vendorBChunkEvent, vendorBErrorEvent } from './vendor-b.stream';

const SPEECH = '/v1/text-to-speech';
const STREAM = '/v1/text-to-speech/stream';

const request = jsonDropInRequest;

const keyed = (req: DropInRequest) => cacheableKeying(vendorBRequestKeying, req);

const BARE = { text: 'Namaste, aap kaise hain?', voice_id: 'b_voice_hi_f1' };

describe('vendor_b request keying', () => {
  it.each([SPEECH, STREAM])('keys %s with codec, sample_rate and speed filled, the rest as sent', (path) => {
    const bare = keyed(request(path, BARE));
    expect(bare.canonical).toEqual({
      method: 'POST',
      path,
      query: {},
      body: { ...BARE, codec: 'pcm', sample_rate: 24000, speed: 1 },
    });
    expect(bare.stored).toEqual([]);
    expect(bare.chars).toBe(BARE.text.length);
  });

  it('keys a body with its defaults left out, null or spelled out alike, in any field order', () => {
    const bare = keyed(request(STREAM, BARE)).canonical;
    for (const same of [
      { ...BARE, codec: 'pcm', sample_rate: 24000, speed: 1.0 },
      { speed: 1, ...BARE, sample_rate: null, codec: null },
      { ...BARE, model: null, language: null, speed: null },
    ]) {
      expect(keyed(request(STREAM, same)).canonical).toEqual(bare);
    }
  });

  it('fills the defaults the vendor fills, and the one speed the catalogue has', () => {
    // What the vendor itself takes for the fields left out: the keying's defaults.
    const voice: VendorBVoiceFacts = { model: 'b_model_1', language: 'hi', languages: ['hi'] };
    const parsed = parseVendorBRequest(BARE, () => voice);
    expect(parsed.ok && parsed.request).toMatchObject({
      spec: { codec: VENDOR_B_DEFAULTS.codec, sampleRate: VENDOR_B_DEFAULTS.sampleRate },
      speed: VENDOR_B_DEFAULTS.speed,
    });
    expect(vendorB.speedDefault).toBe(VENDOR_B_DEFAULTS.speed);
  });

  it('keys the model and language a request leaves to its voice apart from the same ones spelled out', () => {
    // The voice decides them at the vendor, and the key cannot know the voice's: a spelled-out model or language
    // that the voice lacks is refused, so it must never replay the answer to the request that left them out.
    const bare = keyed(request(SPEECH, BARE)).canonical;
    expect(keyed(request(SPEECH, { ...BARE, model: 'b_model_1' })).canonical).not.toEqual(bare);
    expect(keyed(request(SPEECH, { ...BARE, language: 'hi' })).canonical).not.toEqual(bare);
  });

  it('keeps the text, the voice, every other value and unknown fields as sent, so differing requests differ', () => {
    const base = keyed(request(SPEECH, BARE)).canonical;
    for (const variant of [
      request(SPEECH, { ...BARE, text: 'Namaste,  aap kaise hain?' }),
      request(SPEECH, { ...BARE, voice_id: 'b_voice_hi_m1' }),
      request(SPEECH, { ...BARE, codec: 'wav' }),
      request(SPEECH, { ...BARE, sample_rate: 16000 }),
      // The vendor refuses a rate spelled as a string: never the answer to 24000.
      request(SPEECH, { ...BARE, sample_rate: '24000' }),
      request(SPEECH, { ...BARE, speed: 1.2 }),
      request(SPEECH, { ...BARE, future_field: true }),
      request(SPEECH, BARE, 'POST', 'x=1'),
      request(STREAM, BARE),
    ]) {
      expect(keyed(variant).canonical).not.toEqual(base);
    }
  });

  it('counts characters, not UTF-16 units', () => {
    expect(keyed(request(SPEECH, { ...BARE, text: 'नमस्ते 🙏' })).chars).toBe([...'नमस्ते 🙏'].length);
  });

  it('never caches the voice list, an unknown path or a body the vendor refuses for its shape', () => {
    for (const req of [
      request('/v1/voices', '', 'GET'),
      request('/v1/text-to-speech/other', BARE),
      request(SPEECH, BARE, 'GET'),
      request(SPEECH, '[1]'),
      request(SPEECH, 'not json'),
      request(SPEECH, { voice_id: 'b_voice_hi_f1' }),
      request(SPEECH, { ...BARE, text: 5 }),
    ]) {
      expect(vendorBRequestKeying(req)).toEqual({ cacheable: false });
    }
  });

  it('serves the spec’s three endpoints and nothing else', () => {
    expect(dropInServes(vendorBDropIn, 'POST', SPEECH)).toBe(true);
    expect(dropInServes(vendorBDropIn, 'POST', STREAM)).toBe(true);
    expect(dropInServes(vendorBDropIn, 'GET', '/v1/voices')).toBe(true);
    for (const [method, path] of [
      ['GET', SPEECH],
      ['POST', '/v1/voices'],
      ['POST', `${STREAM}/`],
      ['POST', '/v1/text-to-speechXstream'],
      ['POST', '/v2/text-to-speech'],
      ['GET', '/v1/voices/b_voice_hi_f1'],
    ] as const) {
      expect([method, path, dropInServes(vendorBDropIn, method, path)]).toEqual([method, path, false]);
    }
  });
});

const sse = (event: { event: string; data: Record<string, unknown> }): string =>
  writeSseEvent({ event: event.event, data: JSON.stringify(event.data) });

const streamReading = () => vendorBDropIn.readAnswer(request(STREAM, BARE), { status: 200, headers: {} });

describe('vendor_b drop-in answers', () => {
  const audio = [Buffer.from([1, 2, 3, 4]), Buffer.from([5, 6])];
  const chunks = audio.map((piece, i) => sse(vendorBChunkEvent(piece, 40.15 + i)));
  const whole = `${chunks.join('')}${sse(VENDOR_B_DONE_EVENT)}`;

  it('takes a stream that ends with done as whole, and stores its chunks without step_time', () => {
    const reading = streamReading();
    expect(readInChunks(reading, whole)).toEqual({ complete: true });
    const stored = reading.stored(Buffer.from(whole)).toString('utf8');
    const events = new SseFramer().push(stored);
    expect(events.map((e) => e.event)).toEqual(['chunk', 'chunk', 'done']);
    expect(events.map((e) => JSON.parse(e.data) as unknown)).toEqual([
      { type: 'chunk', data: audio[0]?.toString('base64'), done: false, status_code: 200 },
      { type: 'chunk', data: audio[1]?.toString('base64'), done: false, status_code: 200 },
      VENDOR_B_DONE_EVENT.data,
    ]);
    // Everything but step_time is written back as the vendor wrote it.
    expect(stored).toBe(whole.replace(/,"step_time":[\d.]+/g, ''));
  });

  it('knows the events by the type in their data when they are unnamed', () => {
    const unnamed = whole.replace(/^event: \w+\n/gm, '');
    const reading = streamReading();
    expect(readInChunks(reading, unnamed)).toEqual({ complete: true });
    expect(reading.stored(Buffer.from(unnamed)).toString('utf8')).toBe(
      unnamed.replace(/,"step_time":[\d.]+/g, ''),
    );
  });

  it.each([
    [
      'an error event after some audio',
      `${chunks[0]}${sse(vendorBErrorEvent({ status: 500, code: 'internal_error', message: 'x' }))}`,
      NOT_WHOLE.error,
    ],
    [
      'an error event even with a done after it',
      `${chunks[0]}${sse(vendorBErrorEvent({ status: 503, code: 'service_unavailable', message: 'x' }))}${sse(VENDOR_B_DONE_EVENT)}`,
      NOT_WHOLE.error,
    ],
    [
      'a chunk without its audio',
      `${sse({ event: 'chunk', data: { type: 'chunk', done: false } })}${sse(VENDOR_B_DONE_EVENT)}`,
      NOT_WHOLE.error,
    ],
    [
      'an event whose data is not JSON',
      `event: chunk\ndata: {"type":\n\n${sse(VENDOR_B_DONE_EVENT)}`,
      NOT_WHOLE.error,
    ],
    [
      'an event whose data is not an object',
      `event: chunk\ndata: [1]\n\n${sse(VENDOR_B_DONE_EVENT)}`,
      NOT_WHOLE.error,
    ],
    ['a stream that ended before done', chunks.join(''), NOT_WHOLE.noFinal],
    ['a stream that ended inside an event', `${chunks[0]}${chunks[1]?.slice(0, 30)}`, NOT_WHOLE.cut],
  ])('takes %s as not whole', (_label, body, reason) => {
    expect(readInChunks(streamReading(), body)).toEqual({ complete: false, reason });
  });

  it('takes the one-shot clip as whole once it is whole audio as long as its text needs, stored as it came', () => {
    const read = (clip: Buffer) => {
      const reading = vendorBDropIn.readAnswer(request(SPEECH, BARE), {
        status: 200,
        headers: { 'content-type': 'audio/pcm' },
      });
      reading.push(clip);
      return { verdict: reading.end(), stored: reading.stored(clip) };
    };
    // One second of 16-bit samples at the vendor's default 24000 Hz.
    const clip = Buffer.alloc(48_000, 3);
    expect(read(clip).verdict).toEqual({ complete: true });
    expect(read(clip).stored.equals(clip)).toBe(true);
    // Ended early but cleanly: less audio than the text can be spoken in.
    expect(read(clip.subarray(0, 3000)).verdict).toEqual({
      complete: false,
      reason: AUDIO_NOT_WHOLE.tooShort,
    });
  });

  it("passes the content type, the vendor's request id and a refusal's advice, and replays only the content type", () => {
    const { keyed, passed, liveOnly } = vendorBDropIn.headers;
    expect(keyed).toEqual([]);
    expect(passed).toEqual(['content-type', 'x-request-id', 'retry-after', 'www-authenticate']);
    expect(passed.filter((name) => !liveOnly.includes(name))).toEqual(['content-type']);
  });

  it("refuses a body it will not walk in the vendor's error shape", () => {
    const reply = vendorBDropIn.invalidBody({ field: 'text', message: 'text nests past 32 levels' });
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body.toString())).toEqual({
      error: { code: 'invalid_request', message: 'text nests past 32 levels' },
    });
  });
});

describe('vendor_b request labels', () => {
  const labels = (req: DropInRequest) => requestLabels(vendorBDropIn, vendorBDropIn.keying(req));

  it("names the body's model and voice; a model left out is the voice's own, which only the vendor knows", () => {
    expect(labels(request(STREAM, { ...BARE, model: 'b_model_2' }))).toEqual({
      model: 'b_model_2',
      voice: BARE.voice_id,
    });
    expect(labels(request(SPEECH, { ...BARE, model: null }))).toEqual({ model: '', voice: BARE.voice_id });
  });

  it('names nothing of the voice list', () => {
    expect(labels(request('/v1/voices', '', 'GET'))).toEqual({ model: '', voice: '' });
  });
});
