import { AUDIO_NOT_WHOLE, type DropInRequest, dropInServes, requestLabels } from '@router/vendors-core';
import { vendorGDropIn } from './vendor-g.drop-in';
import { VENDOR_G_DEFAULT_MODEL } from './vendor-g.requests';

function request(method: string, path: string, body?: unknown): DropInRequest {
  const bytes = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return {
    method,
    path,
    query: '',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(bytes),
  };
}

const tts = (body: unknown) => request('POST', '/tts', body);

function canonical(body: unknown) {
  const keying = vendorGDropIn.keying(tts(body));
  if (!keying.cacheable) throw new Error('not cached');
  return keying.canonical;
}

const BASE = { text: 'Hello there.', voice: 'Maren' };

describe('vendor_g drop-in wire', () => {
  it.each([
    ['POST', '/tts'],
    ['GET', '/v1/tts-models'],
    ['GET', '/v1/voices'],
    ['GET', '/v1/voices/count'],
    ['GET', '/v1/voices/0b7f2d4e-1a2b-4c3d-8e9f-001122334455'],
  ])('serves %s %s', (method, path) => {
    expect(dropInServes(vendorGDropIn, method, path)).toBe(true);
  });

  it.each([
    ['GET', '/tts'],
    ['POST', '/v1/voices'],
    ['DELETE', '/v1/voices/v1'],
    ['POST', '/v1/voices/v1/recompute'],
    ['POST', '/v1/auth/temporary-api-key'],
    ['GET', '/tts-websocket'],
  ])('has no %s %s (the 404)', (method, path) => {
    expect(dropInServes(vendorGDropIn, method, path)).toBe(false);
  });

  it("keys a /tts body with the vendor's defaults left out, null or spelled out as one", () => {
    const spelled = canonical({
      ...BASE,
      model: 'g_model_3',
      language: 'en',
      audio_format: 'wav',
      sample_rate: 24000,
      speed: 1.0,
      reduce_silence: false,
    });
    expect(canonical(BASE)).toEqual(spelled);
    expect(canonical({ ...BASE, model: null, language: null, audio_format: null, speed: null })).toEqual(
      spelled,
    );
    expect(canonical({ ...BASE, reduce_silence: null })).toEqual(spelled);
    expect(spelled).toEqual({
      method: 'POST',
      path: '/tts',
      query: {},
      body: {
        text: 'Hello there.',
        voice: 'Maren',
        model: 'g_model_3',
        language: 'en',
        audio_format: 'wav',
        sample_rate: 24000,
        speed: 1,
        reduce_silence: false,
      },
    });
  });

  it("fills a compressed format's native rate, never a raw one's, and keeps a null rate as sent", () => {
    expect(canonical({ ...BASE, audio_format: 'mp3' })).toEqual(
      canonical({ ...BASE, audio_format: 'mp3', sample_rate: 24000 }),
    );
    const raw = canonical({ ...BASE, audio_format: 'pcm_s16le' });
    expect(raw.body).not.toHaveProperty('sample_rate');
    expect(raw).not.toEqual(canonical({ ...BASE, audio_format: 'pcm_s16le', sample_rate: 24000 }));
    expect(canonical({ ...BASE, sample_rate: null })).not.toEqual(canonical(BASE));
  });

  it('keeps apart what the vendor reads: the text as sent, the voice, a rate, a bitrate, an unknown field', () => {
    const base = canonical(BASE);
    for (const other of [
      { ...BASE, text: 'Hello  there.' },
      { ...BASE, voice: 'Tobin' },
      { ...BASE, sample_rate: 16000 },
      { ...BASE, bitrate: 64000 },
      { ...BASE, style: 'calm' },
      { ...BASE, speed: 1.1 },
      { ...BASE, reduce_silence: true },
    ]) {
      expect(canonical(other)).not.toEqual(base);
    }
  });

  it('leaves return_timestamps (ignored on REST) and a client_reference_id out of the key; values the vendor refuses stay', () => {
    const base = canonical(BASE);
    expect(canonical({ ...BASE, return_timestamps: true, client_reference_id: 'call-17' })).toEqual(base);
    expect(canonical({ ...BASE, return_timestamps: 'yes' })).not.toEqual(base);
    expect(canonical({ ...BASE, client_reference_id: 'x'.repeat(257) })).not.toEqual(base);
  });

  it('counts the characters of the text', () => {
    const keying = vendorGDropIn.keying(tts({ ...BASE, text: 'Grüße 👋' }));
    expect(keying).toMatchObject({ cacheable: true, chars: 7 });
  });

  it('reads the lists live, and a /tts body the vendor will refuse for its shape too', () => {
    for (const live of [
      request('GET', '/v1/tts-models'),
      request('GET', '/v1/voices'),
      request('GET', '/v1/voices/count'),
      tts('not json'),
      tts([BASE]),
      tts({ voice: 'Maren' }),
      tts({ ...BASE, text: 42 }),
    ]) {
      expect(vendorGDropIn.keying(live)).toEqual({ cacheable: false });
    }
  });

  it('takes an audio answer as whole once it is whole and long enough, stored as it came, with its Content-Type only', () => {
    const read = (bytes: number) => {
      const reading = vendorGDropIn.readAnswer(
        tts({ ...BASE, audio_format: 'pcm_f32le', sample_rate: 16000 }),
        {
          status: 200,
          headers: { 'content-type': 'audio/pcm' },
        },
      );
      reading.push(Buffer.alloc(bytes));
      return reading.end();
    };
    // One second of 32-bit float samples at 16 kHz.
    expect(read(64_000)).toEqual({ complete: true });
    expect(read(64_002)).toEqual({ complete: false, reason: AUDIO_NOT_WHOLE.partialSample });
    expect(read(4_000)).toEqual({ complete: false, reason: AUDIO_NOT_WHOLE.tooShort });
    const reading = vendorGDropIn.readAnswer(tts(BASE), {
      status: 200,
      headers: { 'content-type': 'audio/pcm' },
    });
    expect(reading.stored(Buffer.from('pcm')).toString()).toBe('pcm');
    expect(vendorGDropIn.headers).toEqual({ keyed: [], passed: ['content-type'], liveOnly: [] });
  });

  it('takes a WAV answer as whole only with the samples its header gives', () => {
    const header = Buffer.alloc(44);
    header.write('RIFF', 0, 'latin1');
    header.write('WAVE', 8, 'latin1');
    header.write('fmt ', 12, 'latin1');
    header.writeUInt32LE(16, 16);
    header.write('data', 36, 'latin1');
    header.writeUInt32LE(100, 40);
    const read = (samples: number) => {
      const reading = vendorGDropIn.readAnswer(tts(BASE), {
        status: 200,
        headers: { 'content-type': 'audio/wav' },
      });
      reading.push(Buffer.concat([header, Buffer.alloc(samples)]));
      return reading.end();
    };
    expect(read(100)).toEqual({ complete: true });
    expect(read(50)).toMatchObject({ complete: false });
  });

  it("refuses a body the router will not walk in the vendor's 400, naming the field", () => {
    const answer = vendorGDropIn.invalidBody({ field: 'text', message: 'text nests too deep' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      status_code: 400,
      error_type: 'invalid_request',
      message: 'text nests too deep',
      validation_errors: [{ field: 'text', message: 'text nests too deep' }],
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });
});

describe('vendor_g request labels', () => {
  const labels = (req: DropInRequest) => requestLabels(vendorGDropIn, vendorGDropIn.keying(req));

  it("names the body's model, its default where left out, and voice", () => {
    expect(labels(tts({ ...BASE, model: 'g_model_1' }))).toEqual({ model: 'g_model_1', voice: 'Maren' });
    expect(labels(tts(BASE))).toEqual({ model: VENDOR_G_DEFAULT_MODEL, voice: 'Maren' });
  });
});
