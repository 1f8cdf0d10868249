import {
  AUDIO_NOT_WHOLE,
  type DropInRequest,
  dropInServes,
  NOT_WHOLE,
  jsonDropInRequest,
  cacheableKeying,
  requestLabels,
} from '@router/vendors-core';
import { vendorADropIn, vendorARequestKeying } from './vendor-a.drop-in';
import { VENDOR_A_WARNING_HEADER } from './vendor-a.errors';

const SPEECH = '/text-to-speech';
const STREAM = '/text-to-speech/stream';

const request = (path: string, body: unknown, method = 'POST'): DropInRequest =>
  jsonDropInRequest(path, body, method);

const keyed = (req: DropInRequest) => cacheableKeying(vendorARequestKeying, req);

const BARE = { text: 'Namaste, how can I help?', target_language_code: 'hi-IN' };

describe('vendor_a request keying', () => {
  it.each([
    [SPEECH, 'wav'],
    [STREAM, 'mp3'],
  ])(
    'keys %s with the defaults the vendor fills spelled out, the text and unknown fields as sent',
    (path, codec) => {
      const bare = keyed(request(path, { ...BARE, extra: { a: 1 } }));
      expect(bare.canonical).toEqual({
        method: 'POST',
        path,
        query: {},
        body: {
          extra: { a: 1 },
          text: BARE.text,
          model: 'a_model_1',
          target_language_code: 'hi-IN',
          speaker: 'aarila',
          pace: 1,
          speech_sample_rate: 24000,
          output_audio_codec: codec,
          output_audio_bitrate: '128k',
          min_buffer_size: 50,
          max_chunk_length: 150,
          temperature: 0.6,
          enable_preprocessing: false,
        },
      });
      expect(bare.stored).toEqual([]);
      expect(bare.chars).toBe([...BARE.text].length);
    },
  );

  it('reads language_code, numbers as strings, nulls and spelled-out defaults as the vendor does: one key', () => {
    const bare = keyed(request(STREAM, BARE)).canonical;
    for (const body of [
      { text: BARE.text, language_code: 'hi-IN' },
      { ...BARE, speech_sample_rate: '24000', pace: '1.0', min_buffer_size: '50' },
      { ...BARE, speaker: null, model: 'a_model_1', output_audio_codec: 'mp3', temperature: 0.6 },
      // a_model_1 ignores pitch and loudness.
      { ...BARE, pitch: 0.3, loudness: 2 },
    ]) {
      expect([body, keyed(request(STREAM, body)).canonical]).toEqual([body, bare]);
    }
    for (const body of [
      { ...BARE, pace: 1.5 },
      { ...BARE, speaker: 'arvano' },
      { ...BARE, text: 'Namaste, how can I help' },
      { ...BARE, custom: true },
    ]) {
      expect([body, keyed(request(STREAM, body)).canonical]).not.toEqual([body, bare]);
    }
    // a_model_2 reads pitch, with its own defaults.
    const a2 = keyed(request(STREAM, { ...BARE, model: 'a_model_2', speaker: 'vanshira' })).canonical.body;
    expect(a2).toMatchObject({ pitch: 0, loudness: 1, speech_sample_rate: 22050 });
  });

  it('names a dict_id as a dictionary read once before its answer is cached', () => {
    expect(keyed(request(SPEECH, { ...BARE, dict_id: 'my-dict' })).stored).toEqual([
      { name: 'dictionary/my-dict', kind: 'first-read' },
    ]);
  });

  it('sends what the vendor refuses, or has no audio for, on uncached', () => {
    for (const req of [
      request(STREAM, 'not json'),
      request(STREAM, [BARE]),
      request(STREAM, { target_language_code: 'hi-IN' }),
      request(STREAM, { ...BARE, text: '... !!' }),
      request(STREAM, { ...BARE, speaker: 'Nobody' }),
      request(STREAM, { ...BARE, speech_sample_rate: 44100 }),
      request(SPEECH, BARE, 'GET'),
    ]) {
      expect(vendorARequestKeying(req)).toEqual({ cacheable: false });
    }
  });

  it('serves the two synthesis endpoints only', () => {
    expect(dropInServes(vendorADropIn, 'POST', SPEECH)).toBe(true);
    expect(dropInServes(vendorADropIn, 'POST', STREAM)).toBe(true);
    expect(dropInServes(vendorADropIn, 'GET', SPEECH)).toBe(false);
    expect(dropInServes(vendorADropIn, 'POST', '/text-to-speech/ws')).toBe(false);
  });
});

describe('vendor_a answers', () => {
  const json = { status: 200, headers: { 'content-type': 'application/json' } };

  it('stores a one-shot answer whole with request_id null, and one without audios never', () => {
    const whole = vendorADropIn.readAnswer(request(SPEECH, BARE), json);
    const body = Buffer.from(JSON.stringify({ request_id: '20260101_abc', audios: ['UklGRg=='] }));
    whole.push(body);
    expect(whole.end()).toEqual({ complete: true });
    expect(JSON.parse(whole.stored(body).toString())).toEqual({ request_id: null, audios: ['UklGRg=='] });

    const empty = vendorADropIn.readAnswer(request(SPEECH, BARE), json);
    empty.push(Buffer.from('{"request_id":"x","audios":[]}'));
    expect(empty.end()).toEqual({ complete: false, reason: NOT_WHOLE.error });
  });

  it('stores streamed audio once it is whole and as long as its text needs, never with the vendor warning', () => {
    const pcm = request(STREAM, { ...BARE, output_audio_codec: 'linear16' });
    const read = (bytes: number, headers: Record<string, string> = {}) => {
      const reading = vendorADropIn.readAnswer(pcm, {
        status: 200,
        headers: { 'content-type': 'audio/pcm', ...headers },
      });
      reading.push(Buffer.alloc(bytes));
      return reading.end();
    };
    // One second of 16-bit samples at the model's 24000 Hz.
    expect(read(48_000)).toEqual({ complete: true });
    // Ended early but cleanly: whole samples, but less audio than the text can be spoken in.
    expect(read(4_000)).toEqual({ complete: false, reason: AUDIO_NOT_WHOLE.tooShort });
    expect(read(48_001)).toEqual({ complete: false, reason: AUDIO_NOT_WHOLE.partialSample });
    expect(read(48_000, { [VENDOR_A_WARNING_HEADER]: '{"code":"not_found_error"}' })).toEqual({
      complete: false,
      reason: NOT_WHOLE.error,
    });
    expect(vendorADropIn.headers.passed).toContain(VENDOR_A_WARNING_HEADER);
    expect(vendorADropIn.headers.liveOnly).toContain(VENDOR_A_WARNING_HEADER);
  });

  it("refuses a body it will not walk with the vendor's 422", () => {
    const reply = vendorADropIn.invalidBody({ field: 'pace', message: 'pace holds a number past a double' });
    expect(reply.status).toBe(422);
    expect(JSON.parse(reply.body)).toEqual({
      error: {
        message: 'pace holds a number past a double',
        code: 'unprocessable_entity_error',
        request_id: null,
      },
    });
  });
});

describe('vendor_a request labels', () => {
  const labels = (req: DropInRequest) => requestLabels(vendorADropIn, vendorADropIn.keying(req));

  it("names the body's model and speaker, the model's first speaker and the first model where left out", () => {
    expect(labels(request(STREAM, { ...BARE, model: 'a_model_2', speaker: 'vanshira' }))).toEqual({
      model: 'a_model_2',
      voice: 'vanshira',
    });
    expect(labels(request(SPEECH, BARE))).toEqual({ model: 'a_model_1', voice: 'aarila' });
  });

  it('names nothing of a request it does not key, and never the text', () => {
    expect(labels(request(SPEECH, { text: '' }))).toEqual({ model: '', voice: '' });
    expect(JSON.stringify(labels(request(SPEECH, BARE)))).not.toContain(BARE.text);
  });
});
