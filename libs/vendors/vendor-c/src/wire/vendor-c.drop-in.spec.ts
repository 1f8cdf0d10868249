import {
  AUDIO_NOT_WHOLE,
  type DropInKeying,
  type DropInRequest,
  NOT_WHOLE,
  jsonDropInRequest,
  requestLabels,
} from '@router/vendors-core';
import { vendorCDropIn, vendorCRequestKeying } from './vendor-c.drop-in';
import { timestampedBody, timestampedErrorLine, timestampedLine } from './vendor-c.responses';

const post = (path: string, body: unknown, query = ''): DropInRequest =>
  jsonDropInRequest(path, body, 'POST', query);

function canonical(request: DropInRequest): Extract<DropInKeying, { cacheable: true }> {
  const keying = vendorCRequestKeying(request);
  if (!keying.cacheable) throw new Error('expected a cacheable request');
  return keying;
}

const SPEECH = '/v1/text-to-speech/voice1/stream';

describe('vendor_c request keying', () => {
  it('fills output_format, enable_logging, model_id and apply_text_normalization with their defaults', () => {
    const bare = canonical(post(SPEECH, { text: 'Hello.' }));
    expect(bare.canonical).toEqual({
      method: 'POST',
      path: SPEECH,
      query: { output_format: ['mp3_44100_128'], enable_logging: ['true'] },
      body: { text: 'Hello.', model_id: 'c_model_3', apply_text_normalization: 'auto' },
    });
    const explicit = canonical(
      post(
        SPEECH,
        { apply_text_normalization: 'auto', model_id: 'c_model_3', text: 'Hello.', voice_settings: null },
        'enable_logging=true&output_format=mp3_44100_128',
      ),
    );
    expect(explicit.canonical).toEqual(bare.canonical);
  });

  it('takes c_model_8 as the dialogue default', () => {
    const dialogue = canonical(
      post('/v1/text-to-dialogue/stream', { inputs: [{ text: 'Hi.', voice_id: 'v1' }] }),
    );
    expect(dialogue.canonical.body).toMatchObject({ model_id: 'c_model_8' });
    expect(dialogue.chars).toBe(3);
  });

  it('is the same whatever the order of query parameters and body fields', () => {
    const a = canonical(
      post(SPEECH, { text: 'Hi.', model_id: 'c_model_1', seed: 4 }, 'output_format=pcm_16000&a=1'),
    );
    const b = canonical(
      post(SPEECH, '{"seed":4,   "model_id":"c_model_1","text":"Hi."}', 'a=1&output_format=pcm_16000'),
    );
    expect(JSON.stringify(sorted(a.canonical))).toBe(JSON.stringify(sorted(b.canonical)));
  });

  it('keeps unknown fields, parameters and the text verbatim, so differing requests differ', () => {
    const base = canonical(post(SPEECH, { text: 'Hi there.' })).canonical;
    const variants = [
      post(SPEECH, { text: 'Hi  there.' }),
      post(SPEECH, { text: 'Hi there.', model_id: 'c_model_1' }),
      post(SPEECH, { text: 'Hi there.', future_field: 1 }),
      post(SPEECH, { text: 'Hi there.' }, 'output_format=pcm_16000'),
      post(SPEECH, { text: 'Hi there.' }, 'unknown=x'),
      post('/v1/text-to-speech/voice2/stream', { text: 'Hi there.' }),
      post('/v1/text-to-speech/voice1', { text: 'Hi there.' }),
      post('/v1/text-to-speech/voice1/with-timestamps', { text: 'Hi there.' }),
    ];
    for (const variant of variants) expect(canonical(variant).canonical).not.toEqual(base);
  });

  it('keeps a repeated parameter in its order', () => {
    const ab = canonical(post(SPEECH, { text: 'Hi.' }, 'x=a&x=b')).canonical.query;
    expect(ab['x']).toEqual(['a', 'b']);
  });

  it('names the voice stored settings and unversioned dictionaries the request relies on', () => {
    expect(canonical(post(SPEECH, { text: 'Hi.' })).stored).toEqual([
      { name: 'voice-settings/voice1', kind: 'fingerprint' },
    ]);
    const withSettings = canonical(
      post(SPEECH, {
        text: 'Hi.',
        voice_settings: { stability: 0.5, similarity_boost: 0.5 },
        pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'd1' }],
      }),
    );
    expect(withSettings.stored).toEqual([{ name: 'dictionary/d1', kind: 'fingerprint' }]);
  });

  it("names the voice's stored settings that partial voice settings fall back on, on dialogue too", () => {
    const stored = [{ name: 'voice-settings/voice1', kind: 'fingerprint' }];
    expect(canonical(post(SPEECH, { text: 'Hi.', voice_settings: { speed: 1.1 } })).stored).toEqual(stored);
    expect(canonical(post(SPEECH, { text: 'Hi.', voice_settings: {} })).stored).toEqual(stored);
    const dialogue = (settings: unknown) =>
      canonical(
        post('/v1/text-to-dialogue/stream', { inputs: [{ text: 'Hi.', voice_id: 'voice1' }], settings }),
      ).stored;
    expect(dialogue({})).toEqual(stored);
    expect(dialogue({ stability: 0.5 })).toEqual([]);
  });

  it('caches all four text-to-speech shapes and dialogue streaming, nothing else', () => {
    for (const suffix of ['', '/stream', '/with-timestamps', '/stream/with-timestamps']) {
      expect(
        vendorCRequestKeying(post(`/v1/text-to-speech/voice1${suffix}`, { text: 'Hi.' })).cacheable,
      ).toBe(true);
    }
    const live = [
      { ...post('/v1/voices', ''), method: 'GET' },
      { ...post('/v2/voices', ''), method: 'GET' },
      { ...post('/v1/voices/voice1/settings', ''), method: 'GET' },
      post('/v1/voices/add/owner/voice1', { new_name: 'x' }),
      post(SPEECH, 'not json'),
      post(SPEECH, [1, 2]),
      post(SPEECH, { model_id: 'c_model_1' }),
    ];
    for (const request of live) expect(vendorCRequestKeying(request).cacheable).toBe(false);
  });

  it('reads the query as the vendor does: its flag and integer spellings alike, a latency of 0 as left out', () => {
    const bare = canonical(post(SPEECH, { text: 'Hi.' })).canonical;
    for (const query of [
      'enable_logging=1',
      'enable_logging=TRUE',
      'optimize_streaming_latency=0',
      'optimize_streaming_latency=00&enable_logging=True',
    ]) {
      expect([query, canonical(post(SPEECH, { text: 'Hi.' }, query)).canonical]).toEqual([query, bare]);
    }
    expect(canonical(post(SPEECH, { text: 'Hi.' }, 'enable_logging=0')).canonical).toEqual(
      canonical(post(SPEECH, { text: 'Hi.' }, 'enable_logging=false')).canonical,
    );
    const faster = canonical(post(SPEECH, { text: 'Hi.' }, 'optimize_streaming_latency=01')).canonical;
    expect(faster.query).toEqual({ ...bare.query, optimize_streaming_latency: ['1'] });
    for (const refused of [
      'enable_logging=yes',
      'optimize_streaming_latency=5',
      'optimize_streaming_latency=%2B1',
    ]) {
      expect(canonical(post(SPEECH, { text: 'Hi.' }, refused)).canonical).not.toEqual(bare);
    }
  });

  it("keys voice settings with every field left out (or null) as settings left out: the voice's stored ones", () => {
    const bare = canonical(post(SPEECH, { text: 'Hi.' }));
    for (const voiceSettings of [{}, { stability: null, similarity_boost: null }, { speed: null }]) {
      const keyed = canonical(post(SPEECH, { text: 'Hi.', voice_settings: voiceSettings }));
      expect(keyed.canonical).toEqual(bare.canonical);
      expect(keyed.stored).toEqual(bare.stored);
    }
    const dialogue = (settings: unknown) =>
      canonical(
        post('/v1/text-to-dialogue/stream', { inputs: [{ text: 'Hi.', voice_id: 'voice1' }], settings }),
      ).canonical;
    expect(dialogue({})).toEqual(dialogue(undefined));
    expect(dialogue({ stability: null })).toEqual(dialogue(null));
  });

  it('keys partial voice settings by the fields they send, a null field as left out, 1 and 1.0 alike', () => {
    const partial = canonical(post(SPEECH, '{"text":"Hi.","voice_settings":{"speed":1.0}}'));
    expect(partial.canonical.body).toEqual({
      text: 'Hi.',
      model_id: 'c_model_3',
      apply_text_normalization: 'auto',
      voice_settings: { speed: 1 },
    });
    expect(
      canonical(post(SPEECH, '{"voice_settings":{"style":null,"speed":1},"text":"Hi."}')).canonical,
    ).toEqual(partial.canonical);
    for (const other of [{ speed: 1.1 }, { speed: 1, style: 0 }, { speed: 1, loudness: 2 }, { speed: '1' }]) {
      expect(canonical(post(SPEECH, { text: 'Hi.', voice_settings: other })).canonical).not.toEqual(
        partial.canonical,
      );
    }
  });

  it('keys a dictionary named with a null version as one named without, and a field sent as a string apart', () => {
    const locator = (version: unknown) =>
      canonical(
        post(SPEECH, {
          text: 'Hi.',
          pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'd1', version_id: version }],
        }),
      );
    expect(locator(null).canonical).toEqual(locator(undefined).canonical);
    expect(locator(null).stored).toEqual([
      { name: 'voice-settings/voice1', kind: 'fingerprint' },
      { name: 'dictionary/d1', kind: 'fingerprint' },
    ]);
    expect(locator('v2').canonical).not.toEqual(locator(undefined).canonical);
    expect(canonical(post(SPEECH, { text: 'Hi.', seed: '4' })).canonical).not.toEqual(
      canonical(post(SPEECH, { text: 'Hi.', seed: 4 })).canonical,
    );
  });

  it('keeps a __proto__ field as a field', () => {
    const keyed = canonical(post(SPEECH, '{"text":"Hi.","__proto__":{"x":1}}'));
    expect(Object.keys(keyed.canonical.body as object)).toContain('__proto__');
  });
});

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, sorted(v)]),
  );
}

describe("vendor_c's answers", () => {
  const head = { status: 200, headers: { 'content-type': 'application/json' } };
  const chars = [...'Hi.'].map((char, i) => ({ char, startMs: i * 90, endMs: (i + 1) * 90 }));
  // One second of 16-bit samples at 16 kHz, the `output_format` every answer here is asked for.
  const audio = Buffer.alloc(32_000, 7);
  const problem = { status: 500, code: 'internal_server_error', type: 'server_error', message: 'Failed.' };

  /** The body of an answer to `path`, fed in chunks of 5 bytes (lines and characters split anywhere). */
  function read(path: string, body: string | Buffer) {
    const reading = vendorCDropIn.readAnswer(post(path, { text: 'Hi.' }, 'output_format=pcm_16000'), head);
    const bytes = Buffer.from(body);
    for (let at = 0; at < bytes.length; at += 5) reading.push(bytes.subarray(at, at + 5));
    return { verdict: reading.end(), stored: reading.stored(bytes) };
  }

  it('reads /stream/with-timestamps as JSON lines: whole when every line is a timed chunk', () => {
    const body =
      timestampedLine(audio.subarray(0, 9), chars.slice(0, 2)) + timestampedLine(audio.subarray(9), []);
    const { verdict, stored } = read(`${SPEECH}/with-timestamps`, body);
    expect(verdict).toEqual({ complete: true });
    expect(stored.toString()).toBe(body);
  });

  it('finds whole lines that hold less audio than the text needs (an answer ended between two lines): not whole', () => {
    const body = timestampedLine(audio.subarray(0, 600), chars);
    expect(read(`${SPEECH}/with-timestamps`, body).verdict).toEqual({
      complete: false,
      reason: AUDIO_NOT_WHOLE.tooShort,
    });
  });

  it("finds the vendor's error line after the 200: not whole", () => {
    const body = timestampedLine(audio, chars) + timestampedErrorLine(problem);
    expect(read(`${SPEECH}/with-timestamps`, body).verdict).toEqual({
      complete: false,
      reason: NOT_WHOLE.error,
    });
  });

  it('finds a stream stopped inside a line: not whole', () => {
    const line = timestampedLine(audio, chars);
    expect(read(`${SPEECH}/with-timestamps`, line + line.slice(0, 30)).verdict).toEqual({
      complete: false,
      reason: NOT_WHOLE.cut,
    });
  });

  it('reads /with-timestamps as one JSON document with the audio', () => {
    const body = JSON.stringify(timestampedBody(audio, chars));
    expect(read('/v1/text-to-speech/voice1/with-timestamps', body).verdict).toEqual({ complete: true });
    expect(read('/v1/text-to-speech/voice1/with-timestamps', body.slice(0, -10)).verdict).toMatchObject({
      complete: false,
    });
    expect(
      read('/v1/text-to-speech/voice1/with-timestamps', JSON.stringify({ detail: { status: 'busy' } }))
        .verdict,
    ).toEqual({ complete: false, reason: NOT_WHOLE.error });
  });

  it('takes audio (and a voice named with-timestamps) as whole once it is whole and long enough, stored as it came', () => {
    for (const path of [
      SPEECH,
      '/v1/text-to-speech/voice1',
      '/v1/text-to-speech/with-timestamps',
      '/v1/text-to-dialogue/stream',
    ]) {
      const { verdict, stored } = read(path, audio);
      expect([path, verdict, stored.equals(audio)]).toEqual([path, { complete: true }, true]);
      expect([path, read(path, audio.subarray(0, 600)).verdict]).toEqual([
        path,
        { complete: false, reason: AUDIO_NOT_WHOLE.tooShort },
      ]);
    }
  });

  it('passes its request id and character count on live, and replays the id but not what was billed', () => {
    expect(vendorCDropIn.headers).toEqual({
      keyed: [],
      passed: ['content-type', 'request-id', 'x-character-count'],
      liveOnly: ['x-character-count'],
    });
  });
});

describe('vendor_c request labels', () => {
  const labels = (req: DropInRequest) => requestLabels(vendorCDropIn, vendorCDropIn.keying(req));

  it("names the path's voice and the body's model_id, its default where left out", () => {
    expect(labels(post('/v1/text-to-speech/voice%201/with-timestamps', { text: 'Hi.' }))).toEqual({
      model: 'c_model_3',
      voice: 'voice 1',
    });
    expect(labels(post(SPEECH, { text: 'Hi.', model_id: 'c_model_5' }))).toEqual({
      model: 'c_model_5',
      voice: 'voice1',
    });
  });

  it("names a dialogue's model (its own default) and each of its voices once", () => {
    const inputs = [
      { text: 'Hi.', voice_id: 'v1' },
      { text: 'Hello.', voice_id: 'v2' },
      { text: 'Bye.', voice_id: 'v1' },
    ];
    expect(labels(post('/v1/text-to-dialogue/stream', { inputs }))).toEqual({
      model: 'c_model_8',
      voice: 'v1, v2',
    });
  });
});
